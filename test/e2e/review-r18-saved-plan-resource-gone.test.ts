// Review round 18 (saved plan and state files): a saved plan whose resource was deleted on the
// service before apply --plan (or that is applied with another account's token) printed only
// "asset 9fGh2Kd8LmQz not found": nothing said that the plan was stale, that nothing was sent (the
// other changes were not), or what to do. It now says so, as for a resource changed since the plan.
import { expect, it } from 'vitest'
import { cli, emulator, exampleConfig, exampleSeed, EXAMPLE_SECRETS, writes } from './helpers.js'

it('apply --plan after a planned resource was deleted: stale, nothing sent, and what to do', async () => {
  const em = await emulator()
  const dir = exampleConfig()
  const saved = await cli(em, dir, ['plan', '--out', 'p.json'], EXAMPLE_SECRETS)
  expect(saved.code, saved.stderr).toBe(0)
  const seed = exampleSeed()
  em.seed({ ...seed, assets: seed.assets!.filter((asset) => asset.id !== '9fGh2Kd8LmQz') })
  em.clearRequests()
  const run = await cli(em, dir, ['apply', '--plan', 'p.json', '--auto-approve'], EXAMPLE_SECRETS)
  expect(run.code).toBe(1)
  expect(run.stderr).toContain('asset 9fGh2Kd8LmQz not found')
  expect(run.stderr).toContain('the saved plan is stale')
  expect(run.stderr).toContain('nothing was sent')
  expect(run.stderr).toContain('scansync plan --out again')
  expect(writes(em)).toEqual([])
})
