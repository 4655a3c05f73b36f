// Review round 17 (failures): Ctrl-C during apply, with a write still unanswered when the wait for
// those in flight ends. That write was sent, and may have landed (the next plan found it had): it
// is failed with an unknown outcome, never "not applied" (`sent: false` in the JSON report, counted
// among those never sent). A change still queued behind it was never sent, and says so.
import { expect, it } from 'vitest'
import { executeChanges, type PendingChange, type Sender } from '../../src/apply/executor.js'
import { reportOf } from '../../src/apply/report.js'
import { applyDocument } from '../../src/render/json.js'
import type { Plan, ResourceChange } from '../../src/plan/model.js'
import { KINDS } from '../../src/resources/index.js'
import { emptyState, openLedger } from '../../src/secrets/state.js'

const change = (id: string): ResourceChange => ({ kind: 'asset', id, name: id, action: 'update', method: 'PUT', path: `/discovery/assets/${id}/`, fields: [{ path: 'state', before: 'NEW', after: 'ACTIVE', sensitive: false }] }) as ResourceChange

const pending = (id: string): PendingChange =>
  ({ change: change(id), kind: KINDS.asset, desired: { kind: 'asset', id, fields: { state: 'ACTIVE' } }, request: { method: 'PUT', path: `/discovery/assets/${id}/`, body: { state: 'ACTIVE' } }, hiddenBefore: [] }) as unknown as PendingChange

it('a write still unanswered after the drain is failed (sent, outcome unknown); one queued behind it is not applied (never sent)', async () => {
  const controller = new AbortController()
  const sent: string[] = []
  // The first write goes out and is never answered; Ctrl-C comes while it is on the wire.
  const sender: Sender = {
    request: (_method, path) => {
      sent.push(path)
      controller.abort()
      return new Promise<never>(() => undefined)
    },
  }
  const items = [pending('AstOnTheWire'), pending('AstQueued001')]
  const ledger = openLedger(emptyState(), { key: 'k', token: 'k', fromStateKey: false })
  const outcome = await executeChanges(items, sender, { parallelism: 1, secrets: ledger, signal: controller.signal, drainMs: 20 })

  expect(sent).toEqual(['/discovery/assets/AstOnTheWire/'])
  expect(outcome.interrupted).toBe(true)
  expect(outcome.results.map((r) => [r.id, r.result, r.error])).toEqual([
    ['AstOnTheWire', 'failed', 'interrupted while the request was in flight: it may or may not have been applied; run scansync plan to see'],
    ['AstQueued001', 'not_applied', 'not sent: interrupted before it started'],
  ])

  const plan: Plan = { changes: items.map((i) => i.change), summary: { change: 2, unchanged: 0 } }
  const document = applyDocument(reportOf(plan, outcome.results, outcome.interrupted))
  expect(document.changes.map((c) => [c.id, c.result, c.sent])).toEqual([
    ['AstOnTheWire', 'failed', undefined],
    ['AstQueued001', 'failed', false],
  ])
  expect(document.summary).toEqual({ create: 0, change: 2, unchanged: 0, applied: 0, failed: 2, not_applied: 1 })
})
