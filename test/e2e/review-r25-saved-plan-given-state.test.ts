// Review round 25 (refactoring an applied configuration): a plan saved with `--state FILE` (the
// files passed one by one, the first in a subfolder, the state kept where it always was) printed
// "apply it with: scansync apply --plan FILE", and that apply read and wrote the state beside the
// first path instead: the secret it sent was recorded in a new file no plan reads, and the next
// plan showed it as "changed in YAML" again. The saved plan now keeps the state file plan read,
// and apply --plan uses it unless given --state.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { appliedWithState, cli, EXAMPLE_SECRETS } from './helpers.js'

it('apply --plan reads and writes the state the plan was made with --state', { timeout: 60_000 }, async () => {
  const { em, dir, state } = await appliedWithState()
  const recorded = readFileSync(state, 'utf8')
  const rotated = { ...EXAMPLE_SECRETS, SHOP_LOGIN_PASSWORD: 'login-Rotated-5e0b7c' }
  const files = ['targets/shop.yaml', 'agents.yaml', 'assets.yaml', 'targets/payments-api.yaml']

  const saved = await cli(em, dir, ['plan', ...files, '--state', '.scansync/state.json', '--out', 'release.plan.json'], rotated)
  expect(saved.code, saved.stderr).toBe(0)
  expect(saved.stdout).toContain('(changed in YAML)')
  const applied = await cli(em, dir, ['apply', '--plan', 'release.plan.json', '--auto-approve'], rotated)
  expect(applied.code, applied.stderr).toBe(0)

  expect(existsSync(join(dir, 'targets', '.scansync'))).toBe(false)
  expect(readFileSync(state, 'utf8')).not.toBe(recorded)
  const after = await cli(em, dir, ['plan', '--detailed-exitcode'], rotated)
  expect(after.stdout).toContain('No changes.')
  expect(after.code).toBe(0)
})
