// Review round 21 (attacks on the round's last changes): an apply waiting at "Apply N changes?"
// reads the secrets state again once confirmed, and takes in what another apply sharing it
// recorded meanwhile (the same rotated secret, sent and recorded), so that it finds the target
// already as planned. Not when the state was one from before key ids (keyed by the token, as an
// older scansync left it): the other apply recorded the secret and gave the file its key id, with
// the same token as key, and the first, taking that for "another key", refused once confirmed:
// "target 2DZkoZH8WMEM changed on the service while the plan waited for confirmation; nothing was
// sent" (exit 1), though the target held what it planned.
import { readFileSync } from 'node:fs'
import { beforeAll, expect, it } from 'vitest'
import { runApply } from '../../src/cli/run/apply.js'
import { ensureBuilt } from '../config/helpers.js'
import { appliedWithLegacyState, captureIo, cli, envFor, EXAMPLE_SECRETS } from '../e2e/helpers.js'

beforeAll(ensureBuilt, 120_000)

it('an apply confirmed after another one re-keyed a state from before key ids and recorded the same secret finds it already as planned', async () => {
  const { em, dir, state } = await appliedWithLegacyState()
  const env = { ...EXAMPLE_SECRETS, SHOP_LOGIN_PASSWORD: 'rotated-Secret-77aa11' }
  let other: Awaited<ReturnType<typeof cli>> | undefined
  let writesBefore = 0
  const io = {
    ...captureIo({ env: envFor(em, env), cwd: dir, tty: true }),
    prompt: async () => {
      other = await cli(em, dir, ['apply', '--auto-approve'], env)
      writesBefore = em.requests().filter((r) => r.method !== 'GET').length
      return 'yes'
    },
  }
  const code = await runApply({ paths: ['.'], format: 'text' }, io)
  expect(other?.code, other?.stderr).toBe(0)
  // The other apply gave the state its key id.
  expect((JSON.parse(readFileSync(state, 'utf8')) as { key_id?: string }).key_id).toBeDefined()
  expect(io.err()).not.toContain('changed on the service')
  expect(io.err()).toContain('Already as planned, not sent again: target 2DZkoZH8WMEM.')
  expect(code, io.err()).toBe(0)
  expect(em.requests().filter((r) => r.method !== 'GET')).toHaveLength(writesBefore)
  expect((await cli(em, dir, ['plan'], env)).stdout).toContain('No changes.')
})
