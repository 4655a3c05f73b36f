// Review round 26 (a newcomer's first hour): the README's quick start shows
// `export SCANSYNC_API_URL=http://127.0.0.1:40551  # the address the emulator printed`; a newcomer
// who copied it as written (or whose emulator had stopped) got
// `Error: the target list: could not reach the service at http://127.0.0.1:40551: connection refused (ECONNREFUSED) …`
// and nothing saying what to do next, where the README promises an error line "that says what to do next".
// Now a line follows naming the base URL's variable and flag (and the emulator's printed address).
import { beforeAll, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, runCli, tempdir, TOKEN } from '../e2e/helpers.js'
import { closedPort } from '../helpers/emulator.js'

beforeAll(ensureBuilt, 120_000)


const HINT = /^Nothing answers at http:\/\/127\.0\.0\.1:\d+: check SCANSYNC_API_URL \(or --api-url\); for the emulator, the address `scansync emulator` printed when it started \(is it still running\?\)\.$/m

it.each([['plan'], ['drift'], ['apply', '--auto-approve']])('%s against an address where nothing listens says to check SCANSYNC_API_URL', async (...args) => {
  const url = `http://127.0.0.1:${await closedPort()}`
  const dir = tempdir({ 'assets.yaml': 'assets:\n  - id: 9fGh2Kd8LmQz\n    comment: checked\n' })
  const result = await runCli([...args, '.'], { cwd: dir, env: { SCANSYNC_API_URL: url, SCANSYNC_API_TOKEN: TOKEN, SCANSYNC_BACKOFF_MS: '1' } })
  expect(result.code).toBe(1)
  expect(result.stderr).toMatch(/could not reach the service at http:\/\/127\.0\.0\.1:\d+: connection refused \(ECONNREFUSED\)/)
  expect(result.stderr).toMatch(HINT)
  expect(result.stderr).toContain(`Nothing answers at ${url}:`)
})

it('a service that answers, even with an error, does not get the line', async () => {
  const em = await emulator()
  const dir = tempdir({ 'assets.yaml': 'assets:\n  - id: 9fGh2Kd8LmQz\n    comment: checked\n' })
  const result = await cli(em, dir, ['plan', '.'], { SCANSYNC_API_TOKEN: 'not-the-token' })
  expect(result.code).toBe(1)
  expect(result.stderr).toMatch(/authentication failed \(HTTP 401\)/)
  expect(result.stderr).not.toMatch(/Nothing answers/)
})
