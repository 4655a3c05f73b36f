// Review round 19 (the secrets state's record of variables' values): a field set from a variable
// that is empty (`${PATTERN:-}`, an optional value) had the empty value recorded in the secrets
// state as a value applied from a variable; every empty text of the resource was then "known", so
// that adding a description in the YAML planned `site.desc: (sensitive) -> (sensitive)`, a change
// no reviewer could read. An empty value is no secret (the redaction ignores it): it is neither
// recorded nor recognised, in a state written before too.
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { secretHmac, stateKeyId, variablePath } from '../../src/secrets/state.js'
import { cli, emulator, tempdir, TOKEN } from './helpers.js'

const FIRST = `targets:
  - id: 7QwErTy2UiOp
    site:
      form_login_check_pattern: "\${PATTERN:-}"
    scan_profile: normal
`
const THEN = `targets:
  - id: 7QwErTy2UiOp
    site:
      form_login_check_pattern: "\${PATTERN:-}"
      desc: Staging copy of the shop
    scan_profile: normal
`

async function planOfDescription(dir: string, em: Awaited<ReturnType<typeof emulator>>) {
  writeFileSync(join(dir, 'c.yaml'), THEN)
  const plan = await cli(em, dir, ['plan', '--format', 'json'])
  expect(plan.code, plan.stderr).toBe(0)
  return JSON.parse(plan.stdout).changes[0].fields as { path: string; before: unknown; after: unknown; sensitive?: boolean }[]
}

it('an empty value from a variable is not recorded, and a literal added beside it plans in clear', async () => {
  const em = await emulator()
  const dir = tempdir({ 'c.yaml': FIRST })
  const applied = await cli(em, dir, ['apply', '--auto-approve'])
  expect(applied.code, applied.stderr).toBe(0)
  // Nothing else to record: no state is written at all.
  expect(existsSync(join(dir, '.scansync', 'state.json'))).toBe(false)
  const fields = await planOfDescription(dir, em)
  expect(fields.find((field) => field.path === 'site.desc')).toEqual({ path: 'site.desc', before: '', after: 'Staging copy of the shop', sensitive: false })
})

it('an empty value a state recorded before is not taken for a secret', async () => {
  const em = await emulator()
  const empty = secretHmac(TOKEN, '')
  const state = { format_version: 1, key_id: stateKeyId(TOKEN), resources: { 'target/7QwErTy2UiOp': { [variablePath(empty)]: { hmac: empty } } } }
  const dir = tempdir({ 'c.yaml': FIRST, '.scansync/state.json': JSON.stringify(state) })
  const fields = await planOfDescription(dir, em)
  expect(fields.find((field) => field.path === 'site.desc')).toEqual({ path: 'site.desc', before: '', after: 'Staging copy of the shop', sensitive: false })
})
