// Review round 19 (the secrets state's record of variables' values): the state keeps the record of
// a value applied from a variable while the service still holds it, also once the YAML no longer
// declares that field. Such a record cannot be re-keyed (its value is declared nowhere), so
// setting SCANSYNC_STATE_KEY and applying, as the README says to, left the whole state keyed by
// the API token: once the token was rotated, every hidden secret "cannot be checked". The record
// is now left out of the re-keyed state, which gets the key.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { stateKeyId } from '../../src/secrets/state.js'
import { cli, emulator, tempdir } from './helpers.js'

const target = (extra: string, username: string) => `targets:
  - id: 2DZkoZH8WMEM
    site:${extra}
      has_basic_auth: true
      basic_auth: {username: ${username}, password: "\${PW}", password_is_sensitive: true}
`
const SECRETS = { PW: 'basic-Pw-8Kq3zRt6', DESC: 'desc-Secret-4Jd9Wq' }
const STATE_KEY = 'state-Key-5e1c9a7b3d2f8e60'
const ROTATED = 'rotated-Tok3n-2b7d4f9a1c'

it('a state keyed by the token is re-keyed by an apply with SCANSYNC_STATE_KEY, a past value from a variable notwithstanding', async () => {
  const em = await emulator({ obfuscate: true })
  const dir = tempdir({ 'c.yaml': target('\n      desc: "${DESC}"', 'scanner') })
  const first = await cli(em, dir, ['apply', '--auto-approve'], SECRETS)
  expect(first.code, first.stderr).toBe(0)

  // desc no longer declared (the service keeps it), another change applied with the state key.
  writeFileSync(join(dir, 'c.yaml'), target('', 'scanner-2'))
  const rekeying = await cli(em, dir, ['apply', '--auto-approve'], { ...SECRETS, SCANSYNC_STATE_KEY: STATE_KEY })
  expect(rekeying.code, rekeying.stderr).toBe(0)
  const state = JSON.parse(readFileSync(join(dir, '.scansync', 'state.json'), 'utf8'))
  expect(state.key_id).toBe(stateKeyId(STATE_KEY))

  em.rotateToken(ROTATED)
  const plan = await cli(em, dir, ['plan', '--detailed-exitcode'], { ...SECRETS, SCANSYNC_STATE_KEY: STATE_KEY, SCANSYNC_API_TOKEN: ROTATED })
  expect(plan.stderr).not.toContain('cannot be checked')
  expect(plan.code, plan.stdout + plan.stderr).toBe(0)
})
