// `import --out DIR` where a file stands on DIR's path (a CI job's `--out config/imported` with a
// file `config` in the checkout) crashed after reading nothing: "unexpected failure: ENOTDIR: not a
// directory, stat '…' … please report it". A folder --out cannot create (that, or a read-only
// checkout, where the recursive mkdir says ENOENT) is now said as such, before any request.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { cli, emulator, tempdir } from '../e2e/helpers.js'

it('says that --out cannot be created when a file stands on its path, before any request, without a stack trace', async () => {
  const em = await emulator()
  const dir = tempdir()
  writeFileSync(join(dir, 'config'), 'a file, not a folder\n')
  em.clearRequests()
  const run = await cli(em, dir, ['import', '--kind', 'agent', '--all', '--out', 'config/imported'])
  expect(run.code).toBe(1)
  expect(run.stderr).toBe(`Error: cannot write to --out ${join('config', 'imported')} (ENOTDIR); nothing was written\n`)
  expect(run.stdout).toBe('')
  expect(em.requests()).toEqual([])
})
