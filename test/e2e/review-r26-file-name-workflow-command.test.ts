// A GitHub runner reads a line of a step's stdout or stderr that starts with `::` (after its
// leading white space) as a workflow command. A pull request can add a configuration file named
// `::error file=…::forged.yaml` or `::stop-commands::tok.yaml` (git stores any name without a
// slash). Run from the configuration's own folder (`scansync plan` with PATH left out, the files at
// the repository's root, or a job's `working-directory: config`), the error and violation lines
// start with the file's name, `FILE:LINE:COLUMN: …`: the runner took them for commands (a forged
// annotation, every later annotation silenced), in `validate`'s errors, `plan`'s errors and its
// policy violations on stderr, which the example workflow prints to the log. Such a name is now
// written `./::…` at the start of those lines: the same file, and no line starts with `::`.
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'

const FORGED = '::error file=README.md,line=1,title=T::forged.yaml'
const STOP = '::stop-commands::tok.yaml'
const INDENTED = ' ::add-mask::x.yaml'

const INVALID = (id: string) => `targets:\n  - id: ${id}\n    type: bogus\n`
const BROKEN_RULE = `policies:
  - name: has-comment
    kind: asset
    require: {required: [comment_that_never_is]}
assets:
  - id: 8YuIoP3lKjHg
    state: HIDDEN
`

const commandLines = (text: string) => text.split('\n').filter((line) => line.trimStart().startsWith('::'))

describe('a configuration file whose name starts with `::`', () => {
  it('never starts a line of validate or plan (errors, policy violations), run from its folder', { timeout: 60_000 }, async () => {
    const em = await emulator()
    const invalid = tempdir({ [FORGED]: INVALID('9XcVbN5mQwEr'), [STOP]: INVALID('7QwErTy2UiOp'), [INDENTED]: INVALID('2DZkoZH8WMEM') })
    for (const args of [['validate'], ['validate', '.'], ['plan'], ['plan', '.']]) {
      const run = await cli(em, invalid, args)
      expect(run.code, args.join(' ')).toBe(1)
      expect(commandLines(run.stdout + run.stderr), args.join(' ')).toEqual([])
      // Still the same file, named so that it can be opened.
      expect(run.stderr, args.join(' ')).toContain(`./${FORGED}:3:11: target 9XcVbN5mQwEr: type must be one of`)
      expect(run.stderr, args.join(' ')).toContain(`./${STOP}:3:11: `)
      expect(run.stderr, args.join(' ')).toContain(`./${INDENTED}:3:11: `)
    }

    const violated = tempdir({ [FORGED]: BROKEN_RULE })
    const run = await cli(em, violated, ['plan'])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`./${FORGED}:6:5: policy has-comment: asset 8YuIoP3lKjHg:`)
    expect(commandLines(run.stdout + run.stderr)).toEqual([])
    // Annotations name the file as it is: the runner reads `file=` as a property, never as a command.
    const github = await cli(em, violated, ['plan', '--format', 'github'])
    expect(github.stdout).toContain('::error file=%3A%3Aerror file=README.md%2Cline=1%2Ctitle=T%3A%3Aforged.yaml,line=6,col=5,')
  })
})
