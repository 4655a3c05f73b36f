// Review round 26 (bringing unmanaged resources under management, a few at a time): a team adopting
// two more targets with `import --kind target --id A --id B --out config`, where an earlier import
// wrote config/targets.yaml, was told "config/targets.yaml exists: pass --force to overwrite, or
// choose another --out". --force replaces the file with the two targets alone: every target it
// declared before is then declared nowhere (no longer managed, nothing said). Nothing said how to
// add beside the files already there. The message now says what --force drops, and shows the
// command that writes the new ones to a file of their own (stdout), which plans with the rest.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { cli, emulator, tempdir } from '../e2e/helpers.js'

it('import --id … --out DIR over a file there: says how to add beside it, and what --force would drop', async () => {
  const em = await emulator()
  const dir = tempdir()
  mkdirSync(join(dir, 'config'))
  const before = 'targets:\n  - id: 2DZkoZH8WMEM\n    site:\n      url: https://shop.example.com/\n'
  writeFileSync(join(dir, 'config', 'targets.yaml'), before)
  em.clearRequests()
  const refused = await cli(em, dir, ['import', '--kind', 'target', '--id', '9XcVbN5mQwEr', '--id', '7QwErTy2UiOp', '--out', 'config'])
  expect(refused.code).toBe(1)
  expect(refused.stderr).toContain(`Error: ${join('config', 'targets.yaml')} exists: pass --force to overwrite, or choose another --out`)
  expect(refused.stderr).toContain('--force replaces the whole file: the resources it declares that this import does not write are then declared nowhere')
  expect(refused.stderr).toContain(`to add these beside the files there, write them to a new file: scansync import --kind target --id 7QwErTy2UiOp,9XcVbN5mQwEr > ${join('config', 'NAME.yaml')}`)
  expect(readFileSync(join(dir, 'config', 'targets.yaml'), 'utf8')).toBe(before)
  expect(em.requests()).toEqual([])

  // The command shown, as shown: a file of its own that plans clean beside the one there.
  const added = await cli(em, dir, ['import', '--kind', 'target', '--id', '7QwErTy2UiOp,9XcVbN5mQwEr'])
  expect(added.code).toBe(0)
  writeFileSync(join(dir, 'config', 'adopted.yaml'), added.stdout)
  const plan = await cli(em, dir, ['plan', 'config', '--detailed-exitcode'])
  expect(plan.stdout).toContain('No changes')
  expect(plan.code).toBe(0)
})

it('import --all --out DIR over a file there: what --force drops; no new file (--all would declare again what the files there declare)', async () => {
  const em = await emulator()
  const dir = tempdir()
  writeFileSync(join(dir, 'agents.yaml'), 'agents: []\n')
  const refused = await cli(em, dir, ['import', '--kind', 'target,agent', '--all', '--out', '.'])
  expect(refused.code).toBe(1)
  expect(refused.stderr).toContain('--force replaces the whole file')
  expect(refused.stderr).not.toContain('new file')
})
