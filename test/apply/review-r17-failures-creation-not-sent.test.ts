// Review round 17 (failures): a creation that the client does not send because the service stopped
// answering (the circuit breaker opened on an earlier request) says so, as an update does. It said
// "not sent: interrupted before it started", though nobody had interrupted anything.
import { expect, it } from 'vitest'
import { executeChanges, type PendingChange } from '../../src/apply/executor.js'
import { createClient } from '../../src/client/index.js'
import type { ResourceChange } from '../../src/plan/model.js'
import { KINDS } from '../../src/resources/index.js'
import { emptyState, openLedger } from '../../src/secrets/state.js'
import { closedPort } from '../helpers/emulator.js'

const creation = (url: string): PendingChange => {
  const change = { kind: 'target', id: '', name: url, action: 'create', method: 'POST', path: '/targets/', naturalKey: { field: 'site.url', value: url }, fields: [] } as unknown as ResourceChange
  const fields = { site: { name: url, url } }
  return { change, kind: KINDS.target, desired: { kind: 'target', id: '', naturalKey: { field: 'site.url', value: url }, fields }, request: { method: 'POST', path: '/targets/', body: fields }, hiddenBefore: [] } as unknown as PendingChange
}


it('a creation held back because the service stopped answering is not applied, and says why: no interrupt', async () => {
  const client = createClient({ baseUrl: `http://127.0.0.1:${await closedPort()}/`, token: 't', userAgent: 'test', parallelism: 1, connectionFailureLimit: 1, maxAttempts: 1 })
  try {
    const ledger = openLedger(emptyState(), { key: 'k', token: 'k', fromStateKey: false })
    const { results, interrupted } = await executeChanges([creation('https://one.example.com/'), creation('https://two.example.com/')], client, { parallelism: 1, secrets: ledger, signal: new AbortController().signal })
    expect(interrupted).toBe(false)
    // The first was refused (never sent, so not looked up); the breaker then held the second back.
    expect(results[0]).toMatchObject({ result: 'failed' })
    expect(results[0]!.error).toMatch(/connection refused \(ECONNREFUSED\)/)
    expect(results[1]).toMatchObject({ result: 'not_applied' })
    expect(results[1]!.error).toMatch(/^not sent: the service at http:\/\/127\.0\.0\.1:\d+ stopped answering \(1 connection failures in a row, the last: connection refused \(ECONNREFUSED\)\)$/)
  } finally {
    await client.close()
  }
})
