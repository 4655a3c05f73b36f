/**
 * Usage errors from oclif (a mistyped command or flag, a bad flag value) in scansync's one error
 * style: `Error: …` on one line, a "did you mean" when something close exists, and a pointer to
 * --help instead of a usage dump.
 */
import { readFileSync } from 'node:fs'

interface Manifest {
  commands: Record<string, { flags: Record<string, { char?: string }> }>
}

/** Commands that are not in the manifest (plugins') but may be typed. */
const PLUGIN_COMMANDS = ['help', 'autocomplete']

/**
 * Other tools' words for a flag of ours, too far from its name for a spelling suggestion: a user of
 * apt, npm init or Pulumi types `--yes` where scansync, as Terraform, wants `--auto-approve`.
 */
const OTHER_TOOLS_WORDS: Record<string, string> = {
  '--yes': '--auto-approve',
  '-y': '--auto-approve',
  '--assume-yes': '--auto-approve',
  '--approve': '--auto-approve',
  '--non-interactive': '--auto-approve',
}

let manifest: Manifest | undefined
function readManifest(): Manifest {
  manifest ??= JSON.parse(readFileSync(new URL('../../oclif.manifest.json', import.meta.url), 'utf8')) as Manifest
  return manifest
}

/** The text to print for an oclif error (ending in a newline); undefined when it is not a usage error. */
export function explainUsageError(error: unknown, argv: string[], known: Manifest = readManifest()): string | undefined {
  if (!(error instanceof Error) || !('oclif' in error) || error.message.startsWith('EEXIT')) return undefined
  const lines = error.message.split('\n').filter((l) => !/^See more help with --help$/.test(l.trim()))
  const first = lines[0].trim()
  const commands = [...Object.keys(known.commands), ...PLUGIN_COMMANDS]

  // `command X not found` from oclif's run, `Command X not found.` from its help (`scansync help X`).
  const unknownCommand = /^[Cc]ommand (\S+) not found\.?$/.exec(first)
  if (unknownCommand) {
    // oclif joins the words typed into one command id (`schema:extra`, `pln:c2`): the first is the command, the rest its arguments (worded as oclif words them for a command that takes some).
    const [typed] = unknownCommand[1].split(':')
    if (Object.hasOwn(known.commands, typed)) {
      // The arguments as typed (oclif's id joins them with `:`, which an argument may hold itself).
      const rest = argv.slice(argv.indexOf(typed) + 1).filter((arg) => !arg.startsWith('-'))
      return `Error: Unexpected argument${rest.length === 1 ? '' : 's'}: ${rest.join(', ')}. See scansync ${typed} --help.\n`
    }
    const near = closest(typed, commands)
    return `Error: unknown command "${typed}"${near ? `; did you mean "${near}"?` : '.'} See scansync --help for the commands.\n`
  }

  const command = argv.find((arg) => Object.hasOwn(known.commands, arg))
  const help = command ? `scansync ${command} --help` : 'scansync --help'
  const unknownFlags = /^Nonexistent flags?: (.+)$/.exec(first) ?? /^unknown flag (\S+); see --help$/.exec(first)
  if (unknownFlags) {
    const flags = command ? Object.keys(known.commands[command].flags).map((name) => `--${name}`) : []
    const said = unknownFlags[1].split(/,\s*/).map((typed) => {
      // Its name ends at `=`, or at a space (a flag and its value passed as one word: `"--format json"`).
      const bare = typed.replace(/[=\s].*$/s, '')
      const near = closest(bare, flags) ?? [OTHER_TOOLS_WORDS[bare]].find((flag) => flag !== undefined && flags.includes(flag))
      return `${typed}${near ? ` (did you mean ${near}?)` : ''}`
    })
    return `Error: unknown flag${said.length === 1 ? '' : 's'} ${said.join(', ')}. See ${help}.\n`
  }

  const words = lines
    .map((l) => l.trim())
    .filter((l) => l && !/^The following errors? occurred:$/.test(l))
    // A line that ends with its own colon (`Missing 1 required arg:`) takes the next one after a space.
    .reduce((text, l) => (text === '' ? l : text.endsWith(':') ? `${text} ${l}` : `${text}: ${l}`), '')
    .replace(/ {2,}/g, ' ')
    .replace(/^The following errors? occurred: /, '')
    .replace(/Missing required flag (\S+)/, '--$1 is required')
  return `Error: ${words}${/[.?!]$/.test(words) ? '' : '.'} See ${help}.\n`
}

/** The candidate within a small edit distance of `typed` (or that starts with it), if one is clearly closest. */
export function closest(typed: string, candidates: string[]): string | undefined {
  let best: string | undefined
  let bestDistance = Infinity
  for (const candidate of candidates) {
    const d = candidate.startsWith(typed) && typed.length >= 3 ? 1 : distance(typed, candidate)
    if (d < bestDistance) {
      best = candidate
      bestDistance = d
    }
  }
  return bestDistance <= Math.max(2, Math.floor(typed.length / 3)) ? best : undefined
}

/** Damerau-Levenshtein distance (optimal string alignment): a swap of two letters counts one. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)])
  for (let j = 1; j <= b.length; j++) d[0][j] = j
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1)
    }
  }
  return d[a.length][b.length]
}
