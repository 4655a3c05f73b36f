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
