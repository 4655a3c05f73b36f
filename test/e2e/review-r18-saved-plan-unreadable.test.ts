// Review round 18 (saved plan and state files): apply --plan naming something that is not a
// readable file (a directory: `--plan plans` for `--plan plans/release.json`) said "not JSON", as
// if the file had been truncated or edited. It now says what the system said, and sends nothing.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { cli, emulator, tempdir, writes } from './helpers.js'

it('apply --plan naming a directory: said as such, not "not JSON"; nothing sent', async () => {
  const em = await emulator()
  const dir = tempdir()
  mkdirSync(join(dir, 'plans'))
  const run = await cli(em, dir, ['apply', '--plan', 'plans', '--auto-approve'])
  expect(run.code).toBe(1)
  expect(run.stderr).toContain('cannot read the saved plan plans: it is a directory')
  expect(run.stderr).not.toContain('not JSON')
  expect(writes(em)).toEqual([])
})

it('apply --plan naming a file that is not JSON still says so', async () => {
  const em = await emulator()
  const dir = tempdir({ 'cut.json': '{"format_version": 4, "kind": "scansync-saved-' })
  const run = await cli(em, dir, ['apply', '--plan', 'cut.json', '--auto-approve'])
  expect(run.code).toBe(1)
  expect(run.stderr).toContain('cannot read the saved plan cut.json: not JSON')
  expect(writes(em)).toEqual([])
})
