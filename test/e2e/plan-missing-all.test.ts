// A plan (or apply) whose configuration declares several resources by id that were deleted by
// hand: it refuses, as before, but names every one of them and where each is declared, so that a
// user fixes them in one go instead of one run at a time. The real CLI against the emulator.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, exampleConfig, exampleSeed } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

/** The example seed without the staging shop (a target) and one asset, as if deleted by hand. */
function seedWithDeletions() {
  const seed = exampleSeed()
  seed.targets = seed.targets!.filter((t) => t.id !== '7QwErTy2UiOp')
  seed.assets = seed.assets!.filter((a) => a.id !== '4TrEwQ9aSdFg')
  return seed
}

describe('plan: several declared resources gone from the service', () => {
  it.each([['plan'], ['apply']])('%s names each of them and where it is declared, and sends nothing', async (command) => {
    const em = await emulator({ seed: seedWithDeletions() })
    const dir = exampleConfig()
    const run = await cli(em, dir, [command, '.', ...(command === 'apply' ? ['--auto-approve'] : [])])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/target 7QwErTy2UiOp not found/)
    expect(run.stderr).toMatch(/asset 4TrEwQ9aSdFg not found/)
    expect(run.stderr).toMatch(/target 7QwErTy2UiOp is declared at targets\/shop\.yaml:\d+/)
    expect(run.stderr).toMatch(/asset 4TrEwQ9aSdFg is declared at assets\.yaml:\d+/)
    expect(run.stderr).toMatch(/scansync import --kind target --all or scansync import --kind asset --all/)
    expect(em.requests().every((r) => r.method === 'GET')).toBe(true)
  })

  it('json: the error is the same, stdout holds no plan', async () => {
    const em = await emulator({ seed: seedWithDeletions() })
    const dir = exampleConfig()
    const run = await cli(em, dir, ['plan', '.', '--format', 'json'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/target 7QwErTy2UiOp not found[\s\S]*asset 4TrEwQ9aSdFg not found/)
  })
})
