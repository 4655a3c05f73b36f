// Shell completion (issue 17, friction): file names for PATH, --state, --out and --plan; the
// values of --format and --kind; short flags. Driven in a real bash with the generated script.
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { temporaryDirectory } from '../helpers/emulator.js'

let script = ''
let dir = ''
beforeAll(async () => {
  const result = await runCli(['completion', 'bash'])
  expect(result.code).toBe(0)
  script = result.stdout
  dir = temporaryDirectory('scansync-completion-')
  mkdirSync(join(dir, 'config'))
  writeFileSync(join(dir, 'config', 'targets.yaml'), 'targets: []\n')
  writeFileSync(join(dir, 'plan.json'), '{}')
  writeFileSync(join(dir, 'json-notes.txt'), '')
})

/** What bash offers for the words typed so far (the last one being completed). */
function complete(words: string[]): string[] {
  const program = `${script}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}
_scansync_complete
printf '%s\\n' "\${COMPREPLY[@]}"`
  return execFileSync('bash', ['-c', program], { cwd: dir, encoding: 'utf8' }).split('\n').filter(Boolean).sort()
}

describe('scansync completion bash', () => {
  it('is valid bash', () => {
    execFileSync('bash', ['-n', '-c', script])
  })

  // Review round 24 (README word for word): the README's command table (and `scansync --help`)
  // lists `scansync autocomplete [SHELL]`, but `scansync auto<Tab>` offered nothing: the script
  // left out the commands of scansync's two plugins, writing `help` by hand and forgetting `autocomplete`.
  it('completes every command `scansync --help` lists, autocomplete and help too, each once', async () => {
    const help = await runCli(['--help'])
    const listed = [...help.stdout.replace(/^[\s\S]*?\nCOMMANDS\n/, '').matchAll(/^ {2}(\w+)/gm)].map((m) => m[1]).sort()
    expect(listed).toEqual(expect.arrayContaining(['apply', 'autocomplete', 'help', 'plan']))
    expect(complete(['scansync', ''])).toEqual(listed)
    expect(complete(['scansync', 'auto'])).toEqual(['autocomplete'])
    expect(complete(['scansync', 'he'])).toEqual(['help'])
    expect(complete(['scansync', 'autocomplete', '-'])).toEqual(expect.arrayContaining(['--refresh-cache', '-r']))
  })

  it('completes commands, then file names for PATH, not command names', () => {
    expect(complete(['scansync', 'pl'])).toEqual(['plan'])
    expect(complete(['scansync', 'plan', 'con'])).toEqual(['config'])
    expect(complete(['scansync', 'plan', '--kind', 'agent', 'c'])).toEqual(['config'])
  })

  it('offers the values of --format and --kind, and file names for --state, --out and --plan', () => {
    expect(complete(['scansync', 'plan', '--format', ''])).toEqual(['github', 'json', 'markdown', 'text'])
    expect(complete(['scansync', 'drift', '-f', 'm'])).toEqual(['markdown'])
    expect(complete(['scansync', 'plan', '--kind', 'a'])).toEqual(['agent', 'asset'])
    expect(complete(['scansync', 'plan', '--out', 'pl'])).toEqual(['plan.json'])
    expect(complete(['scansync', 'apply', '--plan', 'pl'])).toEqual(['plan.json'])
    expect(complete(['scansync', 'plan', '--state', 'con'])).toEqual(['config'])
    expect(complete(['scansync', 'plan', '--api-url', 'pl'])).toEqual([])
  })

  it('offers long and short flags', () => {
    expect(complete(['scansync', 'plan', '-'])).toEqual(expect.arrayContaining(['--format', '-f', '-q', '--detailed-exitcode', '--out']))
    expect(complete(['scansync', 'import', '--se'])).toEqual(['--secrets'])
  })

  it('zsh gets the same function through bashcompinit', async () => {
    const zsh = await runCli(['completion', 'zsh'])
    expect(zsh.code).toBe(0)
    expect(zsh.stdout).toContain('bashcompinit')
    expect(zsh.stdout).toContain('complete -o default -F _scansync_complete scansync')
  })
})

// Review round 18 (the command line as users type it): written as `--format=<Tab>` (bash splits the
// word at `=`) the values completed file names; after a comma in `--kind target,<Tab>` (the list
// form the README shows), nothing.
describe('scansync completion bash: values written with = and in lists', () => {
  it('--format=<Tab> and --secrets=<Tab> offer the values, not file names', () => {
    // The cursor right after `=`: bash's word is the `=` itself.
    expect(complete(['scansync', 'plan', '--format', '='])).toEqual(['github', 'json', 'markdown', 'text'])
    expect(complete(['scansync', 'drift', '--format', '=', 'j'])).toEqual(['json'])
    expect(complete(['scansync', 'import', '--secrets', '=', ''])).toEqual(['omit', 'reference'])
    // A file flag still offers file names after `=`.
    expect(complete(['scansync', 'plan', '--out', '=', 'pl'])).toEqual(['plan.json'])
  })

  it('--kind target,<Tab> offers the kinds after the comma, keeping what is before it', () => {
    expect(complete(['scansync', 'plan', '--kind', 'target,a'])).toEqual(['target,agent', 'target,asset'])
    expect(complete(['scansync', 'import', '--kind', '=', 'asset,t'])).toEqual(['asset,target'])
    // Without a comma, as before.
    expect(complete(['scansync', 'plan', '--kind', 'a'])).toEqual(['agent', 'asset'])
  })
})
