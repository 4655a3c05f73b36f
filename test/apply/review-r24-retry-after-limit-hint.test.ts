// A Retry-After longer than the limit fails the request at once with `the service asked to wait
// 300 s before retrying (limit 120 s)`, and nothing said where that limit is set (a review of
// round 24: a timeout is followed by the line naming SCANSYNC_TIMEOUT_MS; this, by nothing, so a
// service in maintenance asking for 5 minutes left the user hunting for the knob). Now a line
// names SCANSYNC_RETRY_AFTER_LIMIT_MS, after a plan's error and after an apply's report, from the
// same place as the timeout's. The real CLI against the emulator's 429 fault.
import { beforeAll, expect, it } from 'vitest'
import { parseFaultSpec } from '../../src/emulator/faults.js'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from '../e2e/helpers.js'

beforeAll(ensureBuilt, 120_000)

const HINT = /^SCANSYNC_RETRY_AFTER_LIMIT_MS sets the longest Retry-After waited for, in milliseconds \(default 120000\)\.$/m
const config = { 'assets.yaml': 'assets:\n  - id: 9fGh2Kd8LmQz\n    comment: checked\n' }
const DEFAULT_LIMIT = { SCANSYNC_RETRY_AFTER_LIMIT_MS: undefined }

it.each(['text', 'json'])('an apply whose write was asked to wait too long names the limit on stderr (%s)', async (format) => {
  const em = await emulator()
  em.setFaults([parseFaultSpec('429,method=PUT,retry-after=300')])
  const applied = await cli(em, tempdir(config), ['apply', '.', '--auto-approve', '--format', format], DEFAULT_LIMIT)
  expect(applied.code, applied.stderr).toBe(1)
  expect(applied.stdout).toContain('the service asked to wait 300 s before retrying (limit 120 s)')
  expect(applied.stderr).toMatch(HINT)
})

it('a plan whose read was asked to wait too long names it after the error', async () => {
  const em = await emulator()
  em.setFaults([parseFaultSpec('429,method=GET,retry-after=300')])
  const planned = await cli(em, tempdir(config), ['plan', '.'], DEFAULT_LIMIT)
  expect(planned.code).toBe(1)
  expect(planned.stderr).toMatch(/^Error: .*the service asked to wait 300 s before retrying \(limit 120 s\)/m)
  expect(planned.stderr).toMatch(HINT)
})

it('a 429 retried within the limit does not name it', async () => {
  const em = await emulator()
  em.setFaults([parseFaultSpec('429:x1,method=PUT,retry-after=0')])
  const applied = await cli(em, tempdir(config), ['apply', '.', '--auto-approve'], DEFAULT_LIMIT)
  expect(applied.code, applied.stderr).toBe(0)
  expect(applied.stderr).not.toMatch(/SCANSYNC_RETRY_AFTER_LIMIT_MS/)
})
