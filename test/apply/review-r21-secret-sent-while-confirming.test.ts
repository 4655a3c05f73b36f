// Review round 21 (two runs at once): two applies sharing one secrets state, one waiting at its
// "Apply N changes?" prompt while the other applies the same rotated secret (and records it). The
// first, confirmed, read the target again but compared its hidden secret with the state as it had
// read it before the prompt: the new obfuscated value looked like a hand change, and it refused
// with "target 2DZkoZH8WMEM changed on the service while the plan waited for confirmation; nothing
// was sent" (exit 1), though the target held what it planned. It now reads the state again with
// the resources, and reports the target already as planned (as it does for a field in clear). So
// for a target to create with a hidden secret that the other apply created: it was refused as
// "a target with this URL now exists", where README promises that the second sends nothing.
import { readFileSync } from 'node:fs'
import { beforeAll, expect, it } from 'vitest'
import { runApply } from '../../src/cli/run/apply.js'
import { ensureBuilt } from '../config/helpers.js'
import { appliedWithLegacyState, appliedWithState, captureIo, cli, emulator, envFor, EXAMPLE_SECRETS, tempdir } from '../e2e/helpers.js'

beforeAll(ensureBuilt, 120_000)

// Also on a state from before key ids (keyed by the token, as an older scansync left it): the
// other apply recorded the secret and gave the file its key id, made from the same token, and the
// first took that for "another key" and refused once confirmed (the last attack wave).
it.each([
  ['a state with its key id', appliedWithState],
  ['a state from before key ids, which the other apply re-keys', appliedWithLegacyState],
])('an apply confirmed after another one sent and recorded the same secret finds it already as planned (%s)', async (_, applied) => {
  const { em, dir, state } = await applied()
  // The secret rotated in the CI's store: both applies send the new value.
  const env = { ...EXAMPLE_SECRETS, SHOP_LOGIN_PASSWORD: 'rotated-Secret-77aa11' }
  let other: Awaited<ReturnType<typeof cli>> | undefined
  let writesBefore = 0
  const io = {
    ...captureIo({ env: envFor(em, env), cwd: dir, tty: true }),
    prompt: async () => {
      // While this apply asks, the other one applies the configuration.
      other = await cli(em, dir, ['apply', '--auto-approve'], env)
      writesBefore = em.requests().filter((r) => r.method !== 'GET').length
      return 'yes'
    },
  }
  const code = await runApply({ paths: ['.'], format: 'text' }, io)
  expect(other?.code, other?.stderr).toBe(0)
  expect(other?.stdout).toContain('✓ target 2DZkoZH8WMEM "Shop (production)" applied')
  expect((JSON.parse(readFileSync(state, 'utf8')) as { key_id?: string }).key_id).toBeDefined()
  expect(code, io.err()).toBe(0)
  expect(io.err()).toContain('Already as planned, not sent again: target 2DZkoZH8WMEM.')
  expect(io.err()).not.toContain('changed on the service')
  expect(em.requests().filter((r) => r.method !== 'GET')).toHaveLength(writesBefore)
  const after = await cli(em, dir, ['plan'], env)
  expect(after.stdout).toContain('No changes.')
})

it('an apply confirmed after another one created the same target, with a hidden secret, finds it created already', async () => {
  const em = await emulator({ obfuscate: true })
  const config = `targets:
  - site:
      name: New app
      url: "https://newapp.example.com/"
      has_basic_auth: true
      basic_auth: {username: scanner, password: "\${NEW_APP_PASSWORD}", password_is_sensitive: true}
    scan_profile: lightning
`
  const dir = tempdir({ 'config.yaml': config })
  const env = { NEW_APP_PASSWORD: 'basic-Secret-5c8e1f' }
  let other: Awaited<ReturnType<typeof cli>> | undefined
  const io = {
    ...captureIo({ env: envFor(em, env), cwd: dir, tty: true }),
    prompt: async () => {
      other = await cli(em, dir, ['apply', '--auto-approve'], env)
      return 'yes'
    },
  }
  const code = await runApply({ paths: ['.'], format: 'text' }, io)
  expect(other?.code, other?.stderr).toBe(0)
  expect(code, io.err()).toBe(0)
  expect(io.err()).toContain('Already as planned, not sent again: target to create "https://newapp.example.com/" (created already, as declared).')
  expect(em.requests().filter((r) => r.method === 'POST')).toHaveLength(1)
  expect((await cli(em, dir, ['plan'], env)).stdout).toContain('No changes.')
})
