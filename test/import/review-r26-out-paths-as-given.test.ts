// Review round 26 (the configuration folder as real repositories hold it): `import --out config`
// with config/targets.yaml already there said "Error: /home/…/repo/config/targets.yaml exists: pass
// --force to overwrite", and `--out config` naming a file "--out /home/…/repo/config is not a
// directory": absolute paths, where every other line of import ("Wrote config/targets.yaml …",
// "cannot write config/agents.yaml") names the files relative to the current directory.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { cli, emulator, tempdir } from '../e2e/helpers.js'

it('import --out names the files that exist, and an --out that is a file, as the user sees them', async () => {
  const em = await emulator()
  const dir = tempdir()
  mkdirSync(join(dir, 'config'))
  writeFileSync(join(dir, 'config', 'targets.yaml'), 'targets: []\n')
  writeFileSync(join(dir, 'config', 'agents.yaml'), 'agents: []\n')
  em.clearRequests()
  const exists = await cli(em, dir, ['import', '--kind', 'target,agent', '--all', '--out', 'config'])
  expect(exists.code).toBe(1)
  expect(exists.stderr).toContain(`Error: ${join('config', 'targets.yaml')}, ${join('config', 'agents.yaml')} exist: pass --force to overwrite, or choose another --out`)
  expect(exists.stderr).not.toContain(dir)

  writeFileSync(join(dir, 'plain'), '')
  const file = await cli(em, dir, ['import', '--kind', 'target', '--all', '--out', 'plain'])
  expect(file.code).toBe(1)
  expect(file.stderr).toContain('--out plain is not a directory')
  expect(file.stderr).not.toContain(dir)
  expect(em.requests()).toEqual([])
})
