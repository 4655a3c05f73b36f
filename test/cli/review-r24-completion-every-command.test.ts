// README, "Shell completion": after `source <(scansync completion bash)`, "Commands, long and
// short flags […] then complete with Tab". The README's command table (and `scansync --help`)
// lists `scansync autocomplete [SHELL]`, but `scansync auto<Tab>` offered nothing: the script
// left out the commands of scansync's two plugins, writing `help` by hand and forgetting
// `autocomplete`. Driven in a real bash with the script the CLI prints.
import { execFileSync } from 'node:child_process'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { temporaryDirectory } from '../helpers/emulator.js'

let script = ''
let dir = ''
beforeAll(async () => {
  const result = await runCli(['completion', 'bash'])
  expect(result.code).toBe(0)
  script = result.stdout
  dir = temporaryDirectory('scansync-r24-completion-')
})

function complete(words: string[]): string[] {
  const program = `${script}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}
_scansync_complete
printf '%s\\n' "\${COMPREPLY[@]}"`
  return execFileSync('bash', ['-c', program], { cwd: dir, encoding: 'utf8' }).split('\n').filter(Boolean).sort()
}

describe('scansync completion bash: every command `scansync --help` lists', () => {
  it('completes autocomplete and help as well as scansync\'s own commands, each once', async () => {
    const help = await runCli(['--help'])
    const listed = [...help.stdout.replace(/^[\s\S]*?\nCOMMANDS\n/, '').matchAll(/^ {2}(\w+)/gm)].map((m) => m[1]).sort()
    expect(listed).toEqual(expect.arrayContaining(['apply', 'autocomplete', 'help', 'plan']))
    expect(complete(['scansync', ''])).toEqual(listed)
    expect(complete(['scansync', 'auto'])).toEqual(['autocomplete'])
    expect(complete(['scansync', 'he'])).toEqual(['help'])
  })

  it('completes the flags of autocomplete', () => {
    expect(complete(['scansync', 'autocomplete', '-'])).toEqual(expect.arrayContaining(['--refresh-cache', '-r']))
  })
})
