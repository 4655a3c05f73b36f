// Review round 26 (the secrets state after a year of applies): a state keyed by the API token (no
// SCANSYNC_STATE_KEY yet) keeps the records of targets since removed from the YAML (deleted on the
// service) and of header names since rotated. Such a record cannot be re-keyed (its value is
// declared nowhere), so setting SCANSYNC_STATE_KEY and applying, as the README says to, left the
// whole state keyed by the token, saying nothing: once the token was rotated, every hidden secret
// "cannot be checked". An apply over the whole configuration now leaves those records out of the
// re-keyed state (a secret of theirs declared again is "not yet tracked"); one that selects with
// --kind or --id, which cannot tell a record of an unselected resource from a stale one, does not.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { stateKeyId } from '../../src/secrets/state.js'
import { cli, emulator, tempdir, TOKEN } from './helpers.js'

const shop = (header: string) => `  - id: 2DZkoZH8WMEM
    site:
      has_basic_auth: true
      basic_auth: {username: scanner, password: "\${PW}", password_is_sensitive: true}
      headers:
        - {name: "${header}", value: "\${HV}", value_is_sensitive: true}
`
const staging = `  - id: 7QwErTy2UiOp
    site:
      has_basic_auth: true
      basic_auth: {username: scanner, password: "\${STAGING_PW}", password_is_sensitive: true}
`
const SECRETS = { PW: 'basic-Pw-8Kq3zRt6', STAGING_PW: 'staging-Pw-3Lm8Wq2x', HV: 'hdr-Val-6Tn2Bv9k', HDR: 'X-Api-Key-1' }
const STATE_KEY = 'state-Key-9d3a7c1e5b2f4a60'
const ROTATED = 'rotated-Tok3n-8c2e6a4f1b'
const keyIdOf = (dir: string) => JSON.parse(readFileSync(join(dir, '.scansync', 'state.json'), 'utf8')).key_id as string

/** A year of applies without the state key: the staging target applied, then removed from the YAML; the header's name rotated. */
async function yearWithoutKey() {
  const em = await emulator({ obfuscate: true })
  const dir = tempdir({ 'c.yaml': `targets:\n${shop('${HDR}')}${staging}` })
  const first = await cli(em, dir, ['apply', '--auto-approve'], SECRETS)
  expect(first.code, first.stderr).toBe(0)
  expect(keyIdOf(dir)).toBe(stateKeyId(TOKEN))
  writeFileSync(join(dir, 'c.yaml'), `targets:\n${shop('${HDR}')}`)
  const rotated = await cli(em, dir, ['apply', '--auto-approve'], { ...SECRETS, HDR: 'X-Api-Key-2' })
  expect(rotated.code, rotated.stderr).toBe(0)
  return { em, dir }
}

describe('a state keyed by the token, holding records of what the YAML no longer declares', () => {
  it.each([false, true])('is re-keyed by the next apply with SCANSYNC_STATE_KEY (sending a change too: %s), and checks every secret after the token is rotated', async (change) => {
    const { em, dir } = await yearWithoutKey()
    if (change) writeFileSync(join(dir, 'c.yaml'), `targets:\n${shop('${HDR}').replace('username: scanner', 'username: scanner-2')}`)
    const env = { ...SECRETS, HDR: 'X-Api-Key-2', SCANSYNC_STATE_KEY: STATE_KEY }
    const rekeying = await cli(em, dir, ['apply', '--auto-approve'], env)
    expect(rekeying.code, rekeying.stderr).toBe(0)
    expect(keyIdOf(dir)).toBe(stateKeyId(STATE_KEY))
    const state = JSON.parse(readFileSync(join(dir, '.scansync', 'state.json'), 'utf8'))
    expect(Object.keys(state.resources)).toEqual(['target/2DZkoZH8WMEM'])

    em.rotateToken(ROTATED)
    const plan = await cli(em, dir, ['plan', '--detailed-exitcode'], { ...env, SCANSYNC_API_TOKEN: ROTATED })
    expect(plan.stderr).not.toContain('cannot be checked')
    expect(plan.code, plan.stdout + plan.stderr).toBe(0)
  })

  it('an apply that selects with --id leaves it keyed by the token, every record kept', async () => {
    const { em, dir } = await yearWithoutKey()
    const before = readFileSync(join(dir, '.scansync', 'state.json'), 'utf8')
    const selected = await cli(em, dir, ['apply', '--auto-approve', '--id', '2DZkoZH8WMEM'], { ...SECRETS, HDR: 'X-Api-Key-2', SCANSYNC_STATE_KEY: STATE_KEY })
    expect(selected.code, selected.stderr).toBe(0)
    expect(readFileSync(join(dir, '.scansync', 'state.json'), 'utf8')).toBe(before)
  })
})
