// Review round 18 (saved plan and state files): a secrets state written without SCANSYNC_STATE_KEY
// (keyed by the API token, the default), then the token rotated. Every run after said the hidden
// secrets "cannot be checked" and to set SCANSYNC_STATE_KEY: doing so changes nothing, as the
// state keeps the old token's key, and a password changed in the YAML was never sent (apply: "No
// changes."). The note now also says the way out: move the state away, and the next apply sends
// the secrets and records them with this key.
import { existsSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { cli, emulator, exampleConfig, EXAMPLE_SECRETS } from './helpers.js'

it('after a token rotation, the note says how to start the state over, and following it sends the changed secret', async () => {
  const em = await emulator({ obfuscate: true })
  const dir = exampleConfig()
  const first = await cli(em, dir, ['apply', '--auto-approve'], EXAMPLE_SECRETS)
  expect(first.code, first.stderr).toBe(0)
  const state = join(dir, '.scansync', 'state.json')
  expect(existsSync(state)).toBe(true)

  const rotated = 'rotated-Tok3n-5c8e1a0b7d'
  em.rotateToken(rotated)
  const env = { ...EXAMPLE_SECRETS, SCANSYNC_API_TOKEN: rotated, SHOP_LOGIN_PASSWORD: 'new-Login-Secret-6e2b90' }
  const stuck = await cli(em, dir, ['plan'], env)
  expect(stuck.code, stuck.stderr).toBe(0)
  expect(stuck.stderr).toContain('cannot be checked')
  expect(stuck.stderr).toContain(`move ${state} away`)

  renameSync(state, `${state}.old`)
  em.clearRequests()
  const again = await cli(em, dir, ['apply', '--auto-approve'], env)
  expect(again.code, again.stderr).toBe(0)
  const sent = em.requests().filter((r) => r.method === 'PATCH' && r.path === '/targets/2DZkoZH8WMEM/')
  expect(sent).toHaveLength(1)
  const after = await cli(em, dir, ['plan', '--detailed-exitcode'], env)
  expect(after.stderr).not.toContain('cannot be checked')
  expect(after.code).toBe(0)
})
