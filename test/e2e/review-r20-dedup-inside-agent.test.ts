// The interface document lists a target's include_deduplicated_endpoints at its top level (not
// always present) and inside its embedded scanning agent ("plus include_deduplicated_endpoints").
// A service that answers it inside the agent only must not get a plan that never empties (and an
// apply that says the service did not take it): the value is read inside the agent then.
import { beforeAll, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'
import { reshapingProxy } from './proxy.js'

beforeAll(ensureBuilt, 120_000)

/** A target answer without the top-level member (the embedded agent keeps its own). */
const withoutTopLevel = (target: Record<string, unknown>): void => void delete target.include_deduplicated_endpoints

it('apply of include_deduplicated_endpoints on a target with an agent, then plan: nothing left to change', async () => {
  const em = await emulator()
  const proxy = await reshapingProxy(em.url, '/targets/', withoutTopLevel)
  const env = { SCANSYNC_API_URL: proxy.url }
  const dir = tempdir({ 'targets.yaml': 'targets:\n  - id: 2DZkoZH8WMEM\n    include_deduplicated_endpoints: true\n' })
  const applied = await cli(em, dir, ['apply', '.', '--auto-approve', '--format', 'json'], env)
  expect(applied.code, applied.stdout + applied.stderr).toBe(0)
  expect(em.requests().filter((r) => r.method === 'PATCH').map((r) => r.body)).toEqual([{ include_deduplicated_endpoints: true }])
  const planned = await cli(em, dir, ['plan', '.', '--format', 'json'], env)
  expect(planned.code, planned.stderr).toBe(0)
  expect((JSON.parse(planned.stdout) as { changes: unknown[] }).changes).toEqual([])
})
