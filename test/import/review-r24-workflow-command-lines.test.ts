// Review round 24 (hostile live values in CI outputs): a GitHub runner reads a line a step prints
// as a workflow command when, after its leading white space (the runner trims it:
// actions/runner, ActionCommand.TryParseV2), it starts with `::`. `scansync import` on stdout wrote
// a live value holding a line break as a multi-line YAML scalar, each of its lines indented on a
// line of its own: an agent renamed by hand to "x\n::add-mask::…\n::error::…" (or a comment, a
// description) printed `      ::error::forged` in the job's log, which the runner took for a
// command: a forged annotation, a mask, `::stop-commands::` silencing scansync's own annotations.
// The output step writes the first `:` of such an indented line as `\u003a`, which the
// double-quoted scalar it is written in reads back as the same character.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { connection, emulator, exampleSeed, planRun, tempDir } from './helpers.js'

const FORGED = [
  'dc-lisbon\n::error file=agents.yaml,line=1::forged annotation from a hand-renamed agent',
  'x\n::add-mask::x',
  'Customer-facing web shop, long enough to be folded\n  ::stop-commands::endtoken\n\t::warning::tab\n\u2003::notice::em space',
  'line one\nline two\n::set-output name=ok::pwned\n',
]

describe('import on stdout: a live value with a line that reads as a workflow command', () => {
  it('prints no line the runner would take for a command, and reads back whole: the next plan is empty', { timeout: 60_000 }, async () => {
    const seed = exampleSeed()
    seed.agents!.find((a) => a.id === '3kLx8Qy7Pb2m')!.name = FORGED[0]!
    seed.agents!.find((a) => a.id === '6NbVcX4zLkJh')!.name = FORGED[1]!
    seed.targets!.find((t) => t.id === '2DZkoZH8WMEM')!.site!.desc = FORGED[2]
    seed.assets![0]!.comment = FORGED[3]
    const em = await emulator({ seed })
    const imported = await runCli(['import', '--kind', 'target,asset,agent', '--all'], { env: connection(em) })
    expect(imported.code, imported.stderr).toBe(0)
    const commandLines = (imported.stdout + imported.stderr).split('\n').filter((line) => /^\s*::/.test(line))
    expect(commandLines).toEqual([])

    const dir = tempDir()
    writeFileSync(join(dir, 'all.yaml'), imported.stdout)
    const plan = await planRun(em, dir, {}, 'json')
    expect(plan.err).toBe('')
    expect(plan.code, plan.out).toBe(0)
  })
})
