// Review round 19 (a team upgrading, two versions in use at once): an apply by the last release
// records no value taken from a ${VARIABLE} (its state has no `variables[#…]` records). After the
// variable was rotated, this version's plan, drift and apply printed the live old value (a label,
// a header's name, a blacklist entry) in clear, with not a word why, though a state written by
// this version hides it. Now a note on stderr names the resource and says why its old values
// cannot be recognised; the plan's exit codes are unchanged.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'

const CONFIG = `targets:
  - id: 2DZkoZH8WMEM
    site:
      blacklist: ["https://shop.example.com/logout", "\${BL}"]
      headers:
        - {name: "\${HEADER}", value: "plain-value"}
    labels: [{name: "\${LABEL}"}]
`
const OLD = { BL: 'https://shop.example.com/Old-Path-7Qx2', HEADER: 'X-OldHeader-7Qx2', LABEL: 'OldLabel-7Qx2' }
const NEW = { BL: 'https://shop.example.com/New-Path-9Wz4', HEADER: 'X-NewHeader-9Wz4', LABEL: 'NewLabel-9Wz4' }
const NOTE = /^Note: .*state\.json has no record of the values this resource took from variables \(target 2DZkoZH8WMEM\): they were last applied by an older scansync/m

/** Applied with the old values, the state then as the last release writes it: no `variables[#…]` record. */
async function appliedByOlderVersion() {
  const em = await emulator()
  const dir = tempdir({ 'c.yaml': CONFIG })
  const first = await cli(em, dir, ['apply', '--auto-approve'], OLD)
  expect(first.code, first.stderr).toBe(0)
  const path = join(dir, '.scansync', 'state.json')
  const state = JSON.parse(readFileSync(path, 'utf8')) as { resources: Record<string, Record<string, unknown>> }
  for (const fields of Object.values(state.resources)) for (const field of Object.keys(fields)) if (field.startsWith('variables[')) delete fields[field]
  writeFileSync(path, JSON.stringify(state, null, 2) + '\n')
  return { em, dir }
}

describe('a variable rotated after an apply by an older version', () => {
  it('plan and drift say why the old values cannot be recognised; exit codes as before', async () => {
    const { em, dir } = await appliedByOlderVersion()
    const plan = await cli(em, dir, ['plan', '--detailed-exitcode'], NEW)
    expect(plan.code, plan.stderr).toBe(2)
    expect(plan.stderr).toMatch(NOTE)
    expect(plan.stderr).not.toMatch(/7Qx2|9Wz4/)
    const drift = await cli(em, dir, ['drift', '--format', 'json'], NEW)
    expect(drift.code, drift.stderr).toBe(2)
    expect(drift.stderr).toMatch(NOTE)
  })

  it('the apply says it too; after it the state records them, and the next rotation needs no note', async () => {
    const { em, dir } = await appliedByOlderVersion()
    const applied = await cli(em, dir, ['apply', '--auto-approve'], NEW)
    expect(applied.code, applied.stderr).toBe(0)
    expect(applied.stderr).toMatch(NOTE)
    const rotatedAgain = await cli(em, dir, ['plan'], { BL: 'https://shop.example.com/Third-3Kk1', HEADER: 'X-Third-3Kk1', LABEL: 'Third-3Kk1' })
    expect(rotatedAgain.code, rotatedAgain.stderr).toBe(0)
    expect(rotatedAgain.stdout).toContain('(sensitive)')
    expect(rotatedAgain.stdout + rotatedAgain.stderr).not.toMatch(/9Wz4/)
    expect(rotatedAgain.stderr).not.toMatch(/has no record/)
  })

  it('no note when nothing differs', async () => {
    const { em, dir } = await appliedByOlderVersion()
    const plan = await cli(em, dir, ['plan', '--detailed-exitcode'], OLD)
    expect(plan.code, plan.stderr).toBe(0)
    expect(plan.stderr).toBe('')
  })
})
