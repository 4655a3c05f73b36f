// Review round 19 (the service fails in the middle of an apply that creates and updates): a
// creation's failure line named its target twice, `✗ target "Shop (new)" (https://new.example.com/)
// failed: target "https://new.example.com/": the service failed (HTTP 500)…`, and the warning of a
// lost answer did too, where an update's line names its resource once (the client's "KIND ID: "
// prefix dropped). Through the real CLI against the emulator's faults.
import { beforeAll, describe, expect, it } from 'vitest'
import { parseFaultSpec } from '../../src/emulator/faults.js'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from '../e2e/helpers.js'

beforeAll(ensureBuilt, 120_000)

const URL = 'https://new.example.com/'
const CONFIG = `targets:
  - site:
      name: Shop (new)
      url: ${URL}
  - id: 2DZkoZH8WMEM
    site:
      name: Shop (renamed)
`

describe('a creation that fails or whose answer is lost names its target once', () => {
  it.each([
    ['500, not created', '500,method=POST', /^✗ target "Shop \(new\)" \(https:\/\/new\.example\.com\/\) failed: the service failed \(HTTP 500\)/m],
    ['connection dropped before the answer, not created', 'drop,method=POST', /^✗ target "Shop \(new\)" \(https:\/\/new\.example\.com\/\) failed: could not reach the service/m],
    ['refused (429 asking for a wait above the limit), not created', '429,method=POST,retry-after=3600', /^✗ target "Shop \(new\)" \(https:\/\/new\.example\.com\/\) failed: the service asked to wait 3600 s before retrying/m],
    ['answer cut off after the service made it', 'drop-mid,method=POST', /^ {4}warning: the answer to the POST was lost \(the service answered HTTP 201 with a body cut off/m],
  ])('%s', async (_, fault, line) => {
    const em = await emulator()
    const dir = tempdir({ 'config.yaml': CONFIG })
    em.setFaults([parseFaultSpec(fault), parseFaultSpec('503,method=PATCH')])
    const applied = await cli(em, dir, ['apply', '.', '--auto-approve'], { SCANSYNC_MAX_ATTEMPTS: '2', SCANSYNC_RETRY_AFTER_LIMIT_MS: '5000' })
    expect(applied.code, applied.stderr).toBe(1)
    expect(applied.stdout).toMatch(line)
    // As an update's failure line: the resource named once, at the start.
    expect(applied.stdout).toMatch(/^✗ target 2DZkoZH8WMEM "Shop \(renamed\)" failed: service unavailable \(HTTP 503\)/m)
    expect(applied.stdout).not.toContain(`target ${JSON.stringify(URL)}:`)
  })
})
