// A plan (or apply) whose configuration declares several resources by id that were deleted by
// hand: it refuses, as before, but names every one of them at the line of its id (an annotation
// there in the github format), so that a user fixes them in one go instead of one run at a time.
// The real CLI against the emulator.
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, exampleConfig } from './helpers.js'
import { lineOf, seedWithDeletions } from './deleted-resources.js'

beforeAll(ensureBuilt, 120_000)

describe('plan: several declared resources gone from the service', () => {
  it.each([['plan'], ['apply']])('%s names each of them at its line, and sends nothing', async (command) => {
    const em = await emulator({ seed: seedWithDeletions() })
    const dir = exampleConfig()
    const run = await cli(em, dir, [command, '.', ...(command === 'apply' ? ['--auto-approve'] : [])])
    expect(run.code).toBe(1)
    const targetLine = lineOf(join(dir, 'targets', 'shop.yaml'), '7QwErTy2UiOp')
    const assetLine = lineOf(join(dir, 'assets.yaml'), '4TrEwQ9aSdFg')
    expect(run.stderr).toMatch(new RegExp(`^assets\\.yaml:${assetLine}:\\d+: asset 4TrEwQ9aSdFg not found: the service has no asset with this id`, 'm'))
    expect(run.stderr).toMatch(new RegExp(`^targets/shop\\.yaml:${targetLine}:\\d+: target 7QwErTy2UiOp not found: the service has no target with this id`, 'm'))
    expect(run.stderr).toMatch(/scansync import --kind target --all or scansync import --kind asset --all/)
    expect(run.stderr).toMatch(/^2 errors in the configuration; nothing was sent\.$/m)
    expect(em.requests().every((r) => r.method === 'GET')).toBe(true)
  })

  it('github: an annotation at each id\'s line', async () => {
    const em = await emulator({ seed: seedWithDeletions() })
    const dir = exampleConfig()
    const run = await cli(em, dir, ['plan', '.', '--format', 'github'])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`::error file=targets/shop.yaml,line=${lineOf(join(dir, 'targets', 'shop.yaml'), '7QwErTy2UiOp')},`)
    expect(run.stderr).toContain(`::error file=assets.yaml,line=${lineOf(join(dir, 'assets.yaml'), '4TrEwQ9aSdFg')},`)
  })

  it('json: the same lines on stderr, stdout holds no plan', async () => {
    const em = await emulator({ seed: seedWithDeletions() })
    const dir = exampleConfig()
    const run = await cli(em, dir, ['plan', '.', '--format', 'json'])
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(/asset 4TrEwQ9aSdFg not found[\s\S]*target 7QwErTy2UiOp not found/)
  })
})
