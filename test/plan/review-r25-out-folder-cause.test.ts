// `plan --out DIR/FILE` whose folder cannot be created named the wrong cause: a file on the way
// (a CI job's `--out plans/release.plan.json` with a file `plans` in the checkout) said "cannot
// create its directory (EEXIST)", and a read-only checkout "(ENOENT)", both what a recursive
// mkdir reports. The first folder that exists now says why: ENOTDIR, EROFS, EACCES.
import { writeFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { cli, emulator, exampleConfig } from '../e2e/helpers.js'
import { join } from 'node:path'

it('names a file on the way of plan --out as ENOTDIR, not EEXIST', async () => {
  const em = await emulator()
  const dir = exampleConfig()
  writeFileSync(join(dir, 'plans'), 'a file, not a folder\n')
  em.clearRequests()
  const run = await cli(em, dir, ['plan', '--out', 'plans/release.plan.json'])
  expect(run.code).toBe(1)
  expect(run.stderr).toContain('Error: --out plans/release.plan.json: cannot create its directory (ENOTDIR)')
  expect(run.stderr).not.toContain('EEXIST')
  expect(em.requests()).toEqual([])
})
