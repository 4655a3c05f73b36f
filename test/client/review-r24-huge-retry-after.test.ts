// A Retry-After of absurd length (a header of hundreds of digits, a date in the year 9999) fails
// the request at once, as any too long; its words said `the service asked to wait Infinity s` and
// `… wait 1e+23 s` (a review of round 24: not words a user can read). Beyond a year the wait is
// said as "more than a year". The real CLI through a proxy answering the writes 429.
import { beforeAll, expect, it } from 'vitest'
import { formatDuration } from '../../src/client/retry-policy.js'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir, writes } from '../e2e/helpers.js'
import { startProxy } from '../e2e/proxy.js'

beforeAll(ensureBuilt, 120_000)

const config = { 'assets.yaml': 'assets:\n  - id: 9fGh2Kd8LmQz\n    comment: checked\n' }

it.each([
  ['hundreds of digits', '1'.repeat(400)],
  ['23 nines (1e+23 as a number)', '9'.repeat(23)],
  ['a date in the year 9999', 'Fri, 31 Dec 9999 23:59:59 GMT'],
])('a Retry-After of %s is said in words', async (_what, retryAfter) => {
  const em = await emulator()
  const proxy = await startProxy(em.url, async (request, forward) =>
    request.method === 'GET' ? forward() : { status: 429, body: '{"detail": "Request was throttled."}', headers: { 'retry-after': retryAfter } },
  )
  const run = await cli(em, tempdir(config), ['apply', '.', '--auto-approve'], { SCANSYNC_API_URL: proxy.url })
  expect(run.code).toBe(1)
  expect(run.stdout).toMatch(/✗ asset 9fGh2Kd8LmQz .*failed: the service asked to wait more than a year before retrying \(limit 5 s\)$/m)
  expect(run.stdout).not.toMatch(/Infinity|e\+/)
  expect(writes(em)).toEqual([])
})

it('durations up to a year keep their seconds', () => {
  expect(formatDuration(250)).toBe('250 ms')
  expect(formatDuration(1500)).toBe('1.5 s')
  expect(formatDuration(3_600_000)).toBe('3600 s')
  expect(formatDuration(365 * 86_400_000)).toBe('31536000 s')
  expect(formatDuration(365 * 86_400_000 + 1000)).toBe('more than a year')
  expect(formatDuration(Infinity)).toBe('more than a year')
})
