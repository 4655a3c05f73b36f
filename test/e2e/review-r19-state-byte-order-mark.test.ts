// Review round 19 (the secrets state file over a repository's life): a .scansync/state.json saved
// by a Windows editor after a hand merge starts with a byte order mark. plan, apply and drift then
// said it "is not a scansync state file; move it away to start over" (which re-sends every hidden
// secret), though the configuration's reader skips the mark. The state's reader now skips it too.
import { readFileSync, writeFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { appliedWithState, cli, EXAMPLE_SECRETS } from './helpers.js'

it('a state starting with a byte order mark is read as the state it is', async () => {
  const { em, dir, state } = await appliedWithState()
  writeFileSync(state, '\uFEFF' + readFileSync(state, 'utf8'))

  const plan = await cli(em, dir, ['plan', '--detailed-exitcode'], EXAMPLE_SECRETS)
  expect(plan.stderr).toBe('')
  expect(plan.stdout).toContain('No changes.')
  expect(plan.code).toBe(0)
  const drift = await cli(em, dir, ['drift'], EXAMPLE_SECRETS)
  expect(drift.stderr).toBe('')
  expect(drift.code).toBe(0)
})
