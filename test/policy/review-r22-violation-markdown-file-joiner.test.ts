// Review round 22 (an attacker of the round's last merges): a policy violation's text line names
// a file whose name holds a zero-width non-joiner (a Persian name) or an emoji's joiner as it is
// (keepInvisible), but the pull-request comment's table (`--format markdown`) still wrote it
// `c\u200cd.yaml:2` in its "Where" cell: a file that does not exist. The file's name is written as
// it is there too; a bidirectional override stays escaped.
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from '../e2e/helpers.js'

const RULE = `policies:
  - name: named-shop
    kind: target
    require: {properties: {site: {properties: {name: {const: Shop}}}}}
`
const CONFIG = `targets:\n  - id: 2DZkoZH8WMEM\n    site: {name: "Sh\\u200bop"}\n${RULE}`

describe("a policy violation's Markdown row, in a file whose name holds a joiner", () => {
  it.each(['تنظیمات\u200cاصلی.yaml', 'team-👩\u200d💻.yaml'])('names the file as it is (%j)', async (file) => {
    const em = await emulator()
    const run = await cli(em, tempdir({ [file]: CONFIG }), ['plan', '--format', 'markdown'])
    expect(run.code).toBe(1)
    const row = run.stdout.split('\n').find((l) => l.includes('<code>named-shop</code>'))
    expect(row, run.stdout).toBeDefined()
    expect(row).toContain(`| ${file}:2 |`)
    expect(row).toContain('must be equal to constant')
  })

  it('still escapes a bidirectional override', async () => {
    const em = await emulator()
    const run = await cli(em, tempdir({ 'ab\u202ecd.yaml': CONFIG }), ['plan', '--format', 'markdown'])
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('| ab\\\\u202ecd.yaml:2 |')
    expect(run.stdout).not.toContain('\u202e')
  })
})
