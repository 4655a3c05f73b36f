// `--kind K` over files that declare no resource of kind K: the run goes on as before (exit 0,
// "No drift."), but says on stderr that the selection selects nothing, so that a mistyped nightly
// job does not pass in silence, checking nothing (a review of round 19). The real CLI.
import { beforeAll, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const assets = { 'assets.yaml': 'assets:\n  - id: 9fGh2Kd8LmQz\n    comment: checked\n' }

it.each([['drift'], ['plan']])('%s --kind agent over files with no agent: a note on stderr, the exit code unchanged', async (command) => {
  const em = await emulator()
  const run = await cli(em, tempdir(assets), [command, '.', '--kind', 'agent'])
  expect(run.code).toBe(0)
  expect(run.stderr).toMatch(/^Note: no agent is declared in these files: --kind agent selects nothing\.$/m)
})

it('a kind that is declared: no note', async () => {
  const em = await emulator()
  const run = await cli(em, tempdir(assets), ['plan', '.', '--kind', 'asset,agent'])
  expect(run.code).toBe(0)
  expect(run.stderr).toMatch(/Note: no agent is declared/)
  expect(run.stderr).not.toMatch(/no asset is declared/)
  const declared = await cli(em, tempdir(assets), ['plan', '.', '--kind', 'asset'])
  expect(declared.stderr).not.toMatch(/Note: no /)
})
