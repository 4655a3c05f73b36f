// Review round 18 (the command line as users type it): the README promises that the values of
// --format, --kind and --secrets complete with Tab. Written as `--format=<Tab>` (bash splits the
// word at `=`) they completed file names; after a comma in `--kind target,<Tab>` (the list form
// the README shows) nothing. Driven in a real bash with the generated script, as bash gives the
// words to a completion function.
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
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
  writeFileSync(join(dir, 'json-notes.txt'), '')
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
