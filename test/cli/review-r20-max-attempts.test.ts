// Review round 20 (upgrading from the first release): the first release took any whole number of
// attempts from SCANSYNC_MAX_ATTEMPTS (its README names no ceiling), so a CI job written for it
// with SCANSYNC_MAX_ATTEMPTS=150 (a flaky service) failed after the upgrade with
// "SCANSYNC_MAX_ATTEMPTS must be a whole number from 1 to 100". The real CLI against the emulator.
import { beforeAll, expect, it } from 'vitest'
import { parseFaultSpec } from '../../src/emulator/faults.js'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from '../e2e/helpers.js'

beforeAll(ensureBuilt, 120_000)

const config = { 'agents.yaml': 'agents:\n  - id: 3kLx8Qy7Pb2m\n    name: dc-lisbon-agent\n' }

it.each(['150', '1000'])('SCANSYNC_MAX_ATTEMPTS=%s is taken, as the first release took it', async (attempts) => {
  const em = await emulator()
  em.setFaults([parseFaultSpec('503:x2,method=GET')])
  const run = await cli(em, tempdir(config), ['plan', '.', '--detailed-exitcode'], { SCANSYNC_MAX_ATTEMPTS: attempts, SCANSYNC_BACKOFF_MS: '1' })
  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
})

it('a value that is not a whole number of attempts is still refused, naming the variable', async () => {
  const em = await emulator()
  const run = await cli(em, tempdir(config), ['plan', '.'], { SCANSYNC_MAX_ATTEMPTS: '0' })
  expect(run.code).toBe(1)
  expect(run.stderr).toMatch(/^Error: SCANSYNC_MAX_ATTEMPTS must be a whole number from 1 to 2147483647 \(got "0"\)/)
})
