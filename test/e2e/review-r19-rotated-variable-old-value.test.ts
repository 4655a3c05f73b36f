// Review round 19 (a rotated secret's old value printed in clear): a ${VARIABLE} used as a list
// item (a blacklist entry, a label name) or as the name of a keyed item (a form field, a header),
// rotated (same name, new value): the new value printed as (sensitive), but the live item still
// holding the OLD value (often still valid during a rotation) printed in clear in plan (every
// format), drift, apply and the saved plan. The secrets state now records, by HMAC only, the
// values applied from variables, and a live value equal to one of them prints as (sensitive).
import { spawn } from 'node:child_process'
import { chmodSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BIN, collectOutput } from '../helpers/cli.js'
import { cli, emulator, envFor, tempdir } from './helpers.js'

const CONFIG = `targets:
  - id: 2DZkoZH8WMEM
    site:
      blacklist: ["https://shop.example.com/logout", "\${BL}"]
      form_login:
        - {name: email, value: scanner@example.com}
        - {name: "\${FIELD}", value: "\${FIELD_VALUE}", value_is_sensitive: true}
      headers:
        - {name: "\${HEADER}", value: "plain-value"}
    labels: [{name: "\${LABEL}"}]
`

const OLD = { FIELD_VALUE: 'field-Value-5Tr8', BL: 'https://shop.example.com/Old-Path-7Qx2', FIELD: 'OldField-7Qx2', HEADER: 'X-OldHeader-7Qx2', LABEL: 'OldLabel-7Qx2' }
const NEW = { FIELD_VALUE: 'field-Value-5Tr8', BL: 'https://shop.example.com/New-Path-9Wz4', FIELD: 'NewField-9Wz4', HEADER: 'X-NewHeader-9Wz4', LABEL: 'NewLabel-9Wz4' }
const VALUES = [...Object.values(OLD), ...Object.values(NEW)]
const MARKER = /7Qx2|9Wz4/

/** Applied with the old values, then the variables rotated: what plan, drift and apply then say. */
async function rotated() {
  const em = await emulator()
  const dir = tempdir({ 'c.yaml': CONFIG })
  const first = await cli(em, dir, ['apply', '--auto-approve'], OLD)
  expect(first.code, first.stderr).toBe(0)
  return { em, dir }
}

describe('a variable rotated after an apply', () => {
  it.each(['text', 'json', 'github', 'markdown'])('plan and drift never print its old value (--format %s)', async (format) => {
    const { em, dir } = await rotated()
    const plan = await cli(em, dir, ['plan', '--format', format], NEW)
    expect(plan.code, plan.stderr).toBe(0)
    expect(plan.stdout).toContain('2DZkoZH8WMEM')
    expect(plan.stdout).toContain('(sensitive)')
    expect(plan.stdout + plan.stderr).not.toMatch(MARKER)
    const drift = await cli(em, dir, ['drift', '--format', format], NEW)
    expect(drift.code, drift.stderr).toBe(2)
    expect(drift.stdout + drift.stderr).not.toMatch(MARKER)
  })

  it('is not in the saved plan, nor in what apply prints, and the plan is empty after the apply', async () => {
    const { em, dir } = await rotated()
    const saved = await cli(em, dir, ['plan', '--out', 'release.plan.json'], NEW)
    expect(saved.code, saved.stderr).toBe(0)
    expect(saved.stdout + saved.stderr).not.toMatch(MARKER)
    expect(readFileSync(join(dir, 'release.plan.json'), 'utf8')).not.toMatch(MARKER)
    const applied = await cli(em, dir, ['apply', '--auto-approve'], NEW)
    expect(applied.code, applied.stderr).toBe(0)
    expect(applied.stdout + applied.stderr).not.toMatch(MARKER)
    expect((await cli(em, dir, ['plan', '--detailed-exitcode'], NEW)).code).toBe(0)
  })

  it('the state records them by HMAC, never a value', async () => {
    const { em, dir } = await rotated()
    const state = readFileSync(join(dir, '.scansync', 'state.json'), 'utf8')
    expect(state).toContain('variables[#')
    for (const value of VALUES) expect(state).not.toContain(value)
    expect(state).not.toMatch(MARKER)
    expect((await cli(em, dir, ['apply', '--auto-approve'], NEW)).code).toBe(0)
    const after = readFileSync(join(dir, '.scansync', 'state.json'), 'utf8')
    expect(after).not.toMatch(MARKER)
    // The old values' records are replaced by the new ones' (as many as before).
    expect(after.match(/variables\[#/g)).toHaveLength(state.match(/variables\[#/g)!.length)
    expect(after).not.toBe(state)
  })
})

// Recording them must not turn an apply in a read-only checkout (whose changes hold no secret the
// service hides) into a failure: it is applied, exit 0, and a note says what is not recorded.
it('an apply with only values from variables to record, the state folder not writable: applied, exit 0, a note', async () => {
  const em = await emulator()
  const state = '{"format_version":1,"resources":{}}\n'
  const dir = tempdir({ 'c.yaml': 'assets:\n  - id: 9fGh2Kd8LmQz\n    comment: "${COMMENT}"\n', '.scansync/state.json': state })
  chmodSync(dir, 0o755)
  chmodSync(join(dir, '.scansync'), 0o555)
  const asOther = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {}
  const child = spawn(process.execPath, [BIN, 'apply', '.', '--auto-approve'], { cwd: dir, env: { PATH: process.env.PATH, NO_COLOR: '1', ...envFor(em), COMMENT: 'comment-Value-3Hy6' }, ...asOther })
  child.stdin.end()
  const run = await collectOutput(child).finally(() => chmodSync(join(dir, '.scansync'), 0o755))
  expect(run.stdout).toContain('Apply: 1 applied, 0 failed, 0 not applied, 0 unchanged.')
  expect(run.stderr).toMatch(/^Note: the secrets state could not be written to .*state\.json \(.*\): it does not record the values this apply took from variables/m)
  expect(run.code).toBe(0)
  expect(readFileSync(join(dir, '.scansync', 'state.json'), 'utf8')).toBe(state)
})
