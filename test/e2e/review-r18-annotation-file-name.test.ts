// Review round 18 (the fixes of this round, attacked): the output step writes `##[` as
// `##\u005b`, so that a GitHub runner does not take a value for the older form of a workflow
// command. It did so in the `file=` of scansync's own annotations too: a configuration file whose
// name holds `##[` (`##[group]shop.yaml`) was annotated as `file=##\u005bgroup]shop.yaml`, a file
// that does not exist, so the annotation did not land on the file in the pull request. The runner
// reads such a line as that annotation, never for the older form: its command and properties are
// written as they are; its message, and every other line, keep the escape.
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'

const FILE = '##[group]shop.yaml'
const INVALID = `targets:
  - id: 2DZkoZH8WMEM
    site: {name: 5}
`

describe('an annotation on a file whose name holds ##[', () => {
  it('names the file as it is; the message and the text format keep the escape', { timeout: 60_000 }, async () => {
    const em = await emulator()
    const dir = tempdir({ [FILE]: INVALID })
    const github = await cli(em, dir, ['plan', '--format', 'github'])
    expect(github.code).toBe(1)
    const annotations = github.stderr.split('\n').filter((line) => line.startsWith('::error '))
    expect(annotations.length).toBeGreaterThan(0)
    for (const line of annotations) {
      expect(line).toMatch(/^::error file=##\[group\]shop\.yaml,line=3,/)
      expect(line.slice(line.indexOf('::', 2))).not.toContain('##[')
    }
    const text = await cli(em, dir, ['plan'])
    expect(text.code).toBe(1)
    expect(text.stdout + text.stderr).toContain('##\\u005bgroup]shop.yaml:3:')
    expect(text.stdout + text.stderr).not.toContain('##[')
  })

  it("a plan's annotation on a change lands on the file; the title quoting a name keeps the escape", { timeout: 60_000 }, async () => {
    const em = await emulator()
    const dir = tempdir({ [FILE]: 'targets:\n  - id: 2DZkoZH8WMEM\n    site:\n      name: "Shop ##[add-mask]x"\n' })
    const github = await cli(em, dir, ['plan', '--format', 'github'])
    expect(github.code).toBe(0)
    const warning = github.stdout.split('\n').find((line) => line.startsWith('::warning '))!
    expect(warning).toMatch(/^::warning file=##\[group\]shop\.yaml,line=4,/)
    expect(warning.slice('::warning file=##[group]shop.yaml'.length)).not.toContain('##[')
    expect(warning).toContain('Shop ##\\u005badd-mask]x')
  })
})
