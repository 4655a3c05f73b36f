// Review round 25 (attack this round's late fixes): `import --out DIR --force` checks that DIR can
// be written before any request, but only when DIR is still to be created. With DIR there and a
// link where one of the files goes (a repository linking agents.yaml from elsewhere), import read
// every resource, wrote targets.yaml over the user's file, then failed at agents.yaml: a folder
// half-written, though import promises to refuse before anything is read. Every file's place is
// now checked before the first request.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { cli, emulator, tempdir } from '../e2e/helpers.js'

it('import --out --force with a link where one of its files goes: refused before any request, nothing written', async () => {
  const em = await emulator()
  const dir = tempdir()
  const out = join(dir, 'config')
  mkdirSync(out)
  writeFileSync(join(out, 'targets.yaml'), 'targets: []\n')
  symlinkSync(join(dir, 'elsewhere.yaml'), join(out, 'agents.yaml'))
  em.clearRequests()
  const run = await cli(em, dir, ['import', '--kind', 'target', '--kind', 'agent', '--all', '--out', 'config', '--force'])
  expect(run.code).toBe(1)
  expect(run.stderr).toContain(`Error: cannot write config/agents.yaml (${join(out, 'agents.yaml')} is a symbolic link: scansync writes its files whole, and neither writes through nor replaces anything else)`)
  expect(run.stderr).toContain('nothing was written')
  expect(readFileSync(join(out, 'targets.yaml'), 'utf8')).toBe('targets: []\n')
  expect(em.requests()).toEqual([])
})
