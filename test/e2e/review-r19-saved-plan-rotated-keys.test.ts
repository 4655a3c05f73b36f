// Review round 19 (two versions in use at once, rotations): a form field's and a header's name
// from a ${VARIABLE}, rotated after an apply. `plan --out` showed the new item added and the old
// one removed, both under `[(sensitive)]`; `apply --plan` showed the plan it was about to send
// with both as `-> (removed)` (the fresh values of the last field under that path were taken
// for each), so the additions it sent were not in what it showed. It now shows the plan as saved.
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'

const CONFIG = `targets:
  - id: 2DZkoZH8WMEM
    site:
      form_login:
        - {name: "\${FIELD}", value: "plain-field-value"}
      headers:
        - {name: "\${HEADER}", value: "plain-value"}
`
const OLD = { FIELD: 'OldField-7Qx2', HEADER: 'X-OldHeader-7Qx2' }
const NEW = { FIELD: 'NewField-9Wz4', HEADER: 'X-NewHeader-9Wz4' }

/** The plan's lines about list items (`site.…[(sensitive)]: …`). */
const itemLines = (text: string) => text.split('\n').filter((line) => line.includes('[(sensitive)]:'))

describe('apply --plan after a rotated variable that names list items', () => {
  it('shows the plan as plan --out showed it: one item added, one removed, per list', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': CONFIG })
    expect((await cli(em, dir, ['apply', '--auto-approve'], OLD)).code).toBe(0)
    const saved = await cli(em, dir, ['plan', '--out', 'release.plan.json'], NEW)
    expect(saved.code, saved.stderr).toBe(0)
    const planned = itemLines(saved.stdout)
    expect(planned.filter((line) => line.includes('(none) ->'))).toHaveLength(2)
    expect(planned.filter((line) => line.endsWith('-> (removed)'))).toHaveLength(2)
    const applied = await cli(em, dir, ['apply', '--plan', 'release.plan.json', '--auto-approve'], NEW)
    expect(applied.code, applied.stderr).toBe(0)
    expect(itemLines(applied.stdout)).toEqual(planned)
    expect(applied.stdout + applied.stderr).not.toMatch(/7Qx2|9Wz4/)
    expect((await cli(em, dir, ['plan', '--detailed-exitcode'], NEW)).code).toBe(0)
  })
})
