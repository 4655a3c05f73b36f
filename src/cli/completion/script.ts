/**
 * Shell completion scripts written from the commands' own flag definitions: command names, long
 * and short flags, the values of flags that have a fixed set (--format, --kind, --secrets), file
 * names for PATH and for flags that take a file or directory (--state, --out, --plan, --seed),
 * and nothing for other values (--api-url, --id), so that the shell does not offer command names there.
 */

export interface CompletionFlag {
  name: string
  char?: string
  type: 'boolean' | 'option'
  options?: readonly string[]
  helpValue?: string | string[]
  /** A list flag's separator (`--kind target,asset`): each value after it completes too. */
  delimiter?: string
}

export interface CompletionCommand {
  id: string
  flags: Record<string, CompletionFlag>
}

const FILE_FLAGS = new Set(['state', 'out', 'plan', 'seed'])
const takesFile = (flag: CompletionFlag) => FILE_FLAGS.has(flag.name) || flag.helpValue === 'FILE' || flag.helpValue === 'DIR'

const quote = (words: string[]) => words.join(' ').replace(/[^\w ,.:=-]/g, '')

/** A bash function (also used by zsh through bashcompinit). */
export function bashScript(bin: string, commands: CompletionCommand[]): string {
  const fn = `_${bin.replace(/\W/g, '_')}_complete`
  const cases: string[] = []
  for (const command of commands) {
    const flags = Object.values(command.flags)
    const words = flags.flatMap((f) => [`--${f.name}`, ...(f.char ? [`-${f.char}`] : [])])
    const valueCases = flags
      .filter((f) => f.type === 'option')
      .map((f) => {
        const spellings = [`--${f.name}`, ...(f.char ? [`-${f.char}`] : [])].join('|')
        // In a list (`target,a`), the value after the last separator, the ones before kept as typed.
        if (f.options?.length && f.delimiter === ',') return `        ${spellings}) COMPREPLY=($(compgen -P "\${cur%"\${cur##*,}"}" -W "${quote([...f.options])}" -- "\${cur##*,}")); return ;;`
        if (f.options?.length) return `        ${spellings}) COMPREPLY=($(compgen -W "${quote([...f.options])}" -- "$cur")); return ;;`
        if (takesFile(f)) return `        ${spellings}) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); return ;;`
        return `        ${spellings}) return ;;`
      })
    cases.push(
      `    ${command.id})`,
      `      case "$prev" in`,
      ...valueCases,
      `      esac`,
      `      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "${quote(words)}" -- "$cur")); return; fi`,
      `      ;;`,
    )
  }
  return `# ${bin} completion for bash (and zsh with bashcompinit). Load it from your shell's rc file:
#   source <(${bin} completion bash)
${fn}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" command="" i
  COMPREPLY=()
  # --flag=VALUE: bash splits the word at = (the cursor just after it: the word is the = itself).
  if [[ "$cur" == "=" ]]; then prev="\${COMP_WORDS[COMP_CWORD-1]}"; cur=""
  elif [[ "$prev" == "=" && COMP_CWORD -ge 2 ]]; then prev="\${COMP_WORDS[COMP_CWORD-2]}"; fi
  for ((i = 1; i < COMP_CWORD; i++)); do
    if [[ "\${COMP_WORDS[i]}" != -* ]]; then command="\${COMP_WORDS[i]}"; break; fi
  done
  if [[ -z "$command" ]]; then
    COMPREPLY=($(compgen -W "${quote(commands.map((c) => c.id))}" -- "$cur"))
    return
  fi
  case "$command" in
${cases.join('\n')}
  esac
  # PATH arguments: file and directory names.
  compopt -o filenames 2>/dev/null
  COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o default -F ${fn} ${bin}
`
}

/** zsh: the bash function through bashcompinit (one script to keep right, not two). */
export function zshScript(bin: string, commands: CompletionCommand[]): string {
  return `# ${bin} completion for zsh. Load it from ~/.zshrc:
#   source <(${bin} completion zsh)
autoload -U +X compinit && compinit
autoload -U +X bashcompinit && bashcompinit
${bashScript(bin, commands).split('\n').filter((line) => !line.startsWith('#')).join('\n')}`
}
