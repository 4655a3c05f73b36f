// An apply that fails before its first write says so: "Nothing was sent." after the error (a
// review of round 19: a read that failed after the confirmation printed only `Error: target X:
// service unavailable…`, leaving the user to wonder what had landed). An apply that failed after
// writes does not say it. The real CLI against the emulator's faults.
import { beforeAll, expect, it } from 'vitest'
import { parseFaultSpec } from '../../src/emulator/faults.js'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir, writes } from '../e2e/helpers.js'

beforeAll(ensureBuilt, 120_000)

const config = { 'assets.yaml': 'assets:\n  - id: 9fGh2Kd8LmQz\n    comment: checked\n' }

it.each(['text', 'json'])('a read that fails before any write: the error, then "Nothing was sent." (%s)', async (format) => {
  const em = await emulator()
  em.setFaults([parseFaultSpec('503,method=GET')])
  const run = await cli(em, tempdir(config), ['apply', '.', '--auto-approve', '--format', format], { SCANSYNC_MAX_ATTEMPTS: '1' })
  expect(run.code).toBe(1)
  expect(run.stderr).toMatch(/^Error: .*HTTP 503/m)
  expect(run.stderr).toMatch(/^Nothing was sent\.$/m)
  expect(writes(em)).toEqual([])
})

it('an error that says it already is not followed by a second "nothing was sent"', async () => {
  const em = await emulator()
  const run = await cli(em, tempdir(config), ['apply', '.', '--auto-approve', '--max-changes', '0'])
  expect(run.code).toBe(1)
  expect(run.stderr.match(/nothing was sent/gi)).toHaveLength(1)
})

it('a write that failed is reported, without "Nothing was sent."', async () => {
  const em = await emulator()
  em.setFaults([parseFaultSpec('500,method=PUT')])
  const run = await cli(em, tempdir(config), ['apply', '.', '--auto-approve'], { SCANSYNC_MAX_ATTEMPTS: '1' })
  expect(run.code).toBe(1)
  expect(run.stdout).toMatch(/✗ asset 9fGh2Kd8LmQz .*failed/)
  expect(run.stderr).not.toMatch(/Nothing was sent/)
})
