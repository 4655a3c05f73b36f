// Review round 19 (the service fails in the middle of an apply: a slow answer): a write that timed
// out was reported `✗ asset … failed: no complete answer from the service within 3 s (1 attempt…)`
// with nothing naming the knob, where a plan's timeout is followed by the line naming
// SCANSYNC_TIMEOUT_MS (README: "a timeout is followed by a line naming SCANSYNC_TIMEOUT_MS").
// Through the real CLI against the emulator's slow fault (the answer comes after the timeout).
import { beforeAll, expect, it } from 'vitest'
import { parseFaultSpec } from '../../src/emulator/faults.js'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from '../e2e/helpers.js'

beforeAll(ensureBuilt, 120_000)

const HINT = /^SCANSYNC_TIMEOUT_MS sets the time allowed per attempt, in milliseconds \(default 30000\)\.$/m

it.each(['text', 'json'])('an apply whose write timed out names SCANSYNC_TIMEOUT_MS on stderr (%s)', async (format) => {
  const em = await emulator()
  const dir = tempdir({ 'assets.yaml': 'assets:\n  - id: 9fGh2Kd8LmQz\n    comment: checked\n' })
  // Only the write is slow, far beyond the timeout; the reads answer at once.
  em.setFaults([parseFaultSpec('slow,method=PUT,ms=600000')])
  const applied = await cli(em, dir, ['apply', '.', '--auto-approve', '--format', format], { SCANSYNC_TIMEOUT_MS: '3000', SCANSYNC_MAX_ATTEMPTS: '1' })
  expect(applied.code, applied.stderr).toBe(1)
  expect(applied.stdout).toContain('9fGh2Kd8LmQz')
  expect(applied.stdout).toContain('no complete answer from the service within 3 s')
  expect(applied.stderr).toMatch(HINT)
}, 30_000)

it('an apply without a timeout does not name it', async () => {
  const em = await emulator()
  const dir = tempdir({ 'assets.yaml': 'assets:\n  - id: 9fGh2Kd8LmQz\n    comment: checked\n' })
  em.setFaults([parseFaultSpec('500,method=PUT')])
  const applied = await cli(em, dir, ['apply', '.', '--auto-approve'])
  expect(applied.code).toBe(1)
  expect(applied.stdout).toMatch(/✗ asset 9fGh2Kd8LmQz .*failed: the service failed \(HTTP 500\)/)
  expect(applied.stderr).not.toMatch(/SCANSYNC_TIMEOUT_MS/)
})
