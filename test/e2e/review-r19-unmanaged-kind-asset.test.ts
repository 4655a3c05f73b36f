// Review round 19 (this round's changes as a user meets them): `drift --unmanaged --kind asset`
// over files that declare no asset passed in silence, checking nothing, as `drift --kind asset`
// did before its note: --unmanaged lists live targets and agents only, never assets, so it was
// taken as covering every kind. The note is now said for a kind --unmanaged does not list. The real CLI.
import { beforeAll, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const agents = { 'agents.yaml': 'agents:\n  - id: 6NbVcX4zLkJh\n    teams: []\n' }

it('drift --unmanaged --kind asset over files with no asset: the note, the exit code unchanged', async () => {
  const em = await emulator()
  const run = await cli(em, tempdir(agents), ['drift', '.', '--unmanaged', '--kind', 'asset'])
  expect(run.code).toBe(0)
  expect(run.stderr).toMatch(/^Note: no asset is declared in these files: --kind asset selects nothing\.$/m)
})

it('drift --unmanaged --kind target over files with no target: no note (the live targets are listed)', async () => {
  const em = await emulator()
  const run = await cli(em, tempdir(agents), ['drift', '.', '--unmanaged', '--kind', 'target,asset'])
  expect(run.code).toBe(2)
  expect(run.stdout).toMatch(/^\? target /m)
  expect(run.stderr).toMatch(/^Note: no asset is declared in these files: --kind asset selects nothing\.$/m)
  expect(run.stderr).not.toMatch(/no target/)
})
