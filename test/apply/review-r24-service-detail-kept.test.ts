// A write the service refuses with a 400 whose body holds its reason as `detail` beside an error
// `code` (`{"detail": "Target limit reached…", "code": "limit_reached"}`), or beside field errors,
// is reported with that reason (a review of round 24: apply printed `failed: code: limit_reached
// (targets.yaml:2)`, the code taken for a field and the reason dropped; with field errors the
// reason was dropped too). The real CLI through a proxy answering the writes.
import { beforeAll, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir, writes } from '../e2e/helpers.js'
import { startProxy } from '../e2e/proxy.js'

beforeAll(ensureBuilt, 120_000)

const config = { 'targets.yaml': 'targets:\n  - id: 2DZkoZH8WMEM\n    site:\n      name: Shop (renamed)\n' }

/** The real CLI's apply through a proxy answering every write 400 with `body`. */
async function applyRefused(body: object, format = 'text') {
  const em = await emulator()
  const proxy = await startProxy(em.url, async (request, forward) => (request.method === 'GET' ? forward() : { status: 400, body: JSON.stringify(body) }))
  const run = await cli(em, tempdir(config), ['apply', '.', '--auto-approve', '--format', format], { SCANSYNC_API_URL: proxy.url })
  expect(writes(em)).toEqual([])
  return run
}

it('a detail with its error code: the detail is the reason, the code is no field', async () => {
  const run = await applyRefused({ detail: 'Target limit reached for this account', code: 'limit_reached' })
  expect(run.code).toBe(1)
  expect(run.stdout).toMatch(/✗ target 2DZkoZH8WMEM "Shop \(renamed\)" failed: the service rejected the request \(HTTP 400\): Target limit reached for this account$/m)
  expect(run.stdout).not.toMatch(/code: limit_reached/)
})

it('the same in the JSON report', async () => {
  const run = await applyRefused({ detail: 'Target limit reached for this account', code: 'limit_reached' }, 'json')
  const report = JSON.parse(run.stdout) as { changes: { result: string; error: string }[] }
  expect(report.changes[0]).toMatchObject({ result: 'failed', error: 'the service rejected the request (HTTP 400): Target limit reached for this account' })
})

it('a detail beside field errors: both, the field at its YAML line', async () => {
  const run = await applyRefused({ detail: 'A scan is running: settings are locked', site: { name: ['This field may not be changed now.'] } })
  expect(run.code).toBe(1)
  expect(run.stdout).toMatch(/failed: A scan is running: settings are locked; site\.name: This field may not be changed now\. \(targets\.yaml:4\)$/m)
})

it('field errors alone read as before', async () => {
  const run = await applyRefused({ site: { name: ['Ensure this field has no more than 255 characters.'] } })
  expect(run.stdout).toMatch(/failed: site\.name: Ensure this field has no more than 255 characters\. \(targets\.yaml:4\)$/m)
})
