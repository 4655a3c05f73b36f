// The fault matrix of issue 8: each fault the service or the network can throw at scansync, what
// plan and apply do about it, and how the test (faults.test.ts) checks it. docs/reliability.md
// shows the same table; a test checks that every row is there.
import type { FaultSpec } from '../../src/emulator/index.js'

/** The resources of the matrix: the first `changed` of each kind differ from the configuration. */
export const TARGETS = Array.from({ length: 6 }, (_, i) => `HardTgt0000${i}`)
export const ASSETS = Array.from({ length: 4 }, (_, i) => `HardAst0000${i}`)
export const AGENTS = Array.from({ length: 2 }, (_, i) => `HardAgt0000${i}`)
export const CHANGED = { targets: 4, assets: 2, agents: 1 }
export const CHANGES = CHANGED.targets + CHANGED.assets + CHANGED.agents
export const UNCHANGED = TARGETS.length + ASSETS.length + AGENTS.length - CHANGES

/** One write that the row makes fail for good: its kind words and its path. */
export const VICTIM = { words: `target ${TARGETS[1]}`, path: `/targets/${TARGETS[1]}/`, id: TARGETS[1] }

/**
 * Reads of the three kinds run at once: when several fail, the error is the first to fail, or
 * (the two agents read by id) "2 reads failed:" and each on its own line.
 */
export type Outcome =
  /** Retries absorb the fault: plan and apply succeed, one clean write per change. */
  | { kind: 'converges' }
  /** The run fails with this message (a pattern), naming what failed; exit 1. */
  | { kind: 'error'; message: RegExp }

export interface FaultRow {
  /** The fault or hostile answer, in words (the first column of the table in docs/reliability.md). */
  fault: string
  /** Faults during `plan` (the reads). */
  planFaults: FaultSpec[]
  plan: Outcome
  /** Faults during `apply` (its reads and its writes). */
  applyFaults: FaultSpec[]
  /**
   * converges: every change applied. error: the VICTIM's change fails with the message, the others
   * are applied; `landed` says whether the failed write took effect on the service all the same
   * (a fault that strikes after the service handled the request), so the report must say it may
   * have been applied.
   */
  apply: Outcome & { landed?: boolean }
  env?: Record<string, string>
  /** The outcome, in words, for docs/reliability.md. */
  words: string
}

const victim = { method: 'PATCH', path: VICTIM.path }
/** Far above what an answer takes even on a loaded runner (a spurious timeout would send a write twice). */
const TIMEOUT_MS = '1000'

export const FAULT_ROWS: FaultRow[] = [
  {
    fault: '429 storm with Retry-After',
    planFaults: [{ type: '429', share: 0.5, retryAfter: 0 }],
    plan: { kind: 'converges' },
    applyFaults: [{ type: '429', share: 0.5, retryAfter: 0 }],
    apply: { kind: 'converges' },
    words: 'waits as asked, retries (and lowers its parallelism): converges',
  },
  {
    fault: '429 storm without Retry-After',
    planFaults: [{ type: '429', share: 0.5 }],
    plan: { kind: 'converges' },
    applyFaults: [{ type: '429', share: 0.5 }],
    apply: { kind: 'converges' },
    words: 'exponential backoff with jitter, retries: converges',
  },
  {
    fault: 'Retry-After above the ceiling (3600 s; limit SCANSYNC_RETRY_AFTER_LIMIT_MS)',
    planFaults: [{ type: '429', retryAfter: 3600 }],
    plan: { kind: 'error', message: /^Error: (?:\d reads failed:\n {2})?(the (target|asset) list|agent HardAgt0000\d): the service asked to wait 3600 s before retrying \(limit 5 s\)$/m },
    applyFaults: [{ type: '429', retryAfter: 3600, ...victim }],
    apply: { kind: 'error', message: /the service asked to wait 3600 s before retrying \(limit 5 s\)$/ },
    words: 'fails at once (one attempt, no wait), naming the resource and the wait asked for; exit 1',
  },
  {
    fault: 'burst of 500',
    planFaults: [{ type: '500', count: 1 }],
    plan: { kind: 'error', message: /^Error: (?:\d reads failed:\n {2})?(the (target|asset) list|agent HardAgt0000\d): the service failed \(HTTP 500\): A server error occurred\.$/m },
    applyFaults: [{ type: '500', count: 1, ...victim }],
    apply: { kind: 'error', message: /the service failed \(HTTP 500\): A server error occurred\.; it may or may not have been applied: run scansync plan to see$/ },
    words: 'not retried (a fault of the service that the same request would hit again): a clear error naming the resource; for a write, the report says it may have been applied (a 500 does not say it was not); exit 1; the next apply sends only what is left',
  },
  ...(['502', '503', '504'] as const).map(
    (status): FaultRow => ({
      fault: `burst of ${status}`,
      planFaults: [{ type: status, count: 3 }],
      plan: { kind: 'converges' },
      applyFaults: [{ type: status, count: 2, method: 'GET' }, { type: status, count: 3, method: 'PATCH' }, { type: status, count: 1, method: 'PUT' }],
      apply: { kind: 'converges' },
      words: 'retried with backoff: converges',
    }),
  ),
  {
    fault: '503 on every attempt of one write',
    planFaults: [],
    plan: { kind: 'converges' },
    applyFaults: [{ type: '503', ...victim }],
    apply: { kind: 'error', message: /service unavailable \(HTTP 503\) after 4 attempts: Service temporarily unavailable, try again later\.; it may or may not have been applied: run scansync plan to see$/ },
    words: 'that change fails after the last attempt, naming the resource; the others are applied; exit 1',
  },
  {
    fault: 'connection dropped before the answer',
    planFaults: [{ type: 'drop', share: 0.3 }],
    plan: { kind: 'converges' },
    applyFaults: [{ type: 'drop', share: 0.3 }],
    apply: { kind: 'converges' },
    words: 'retried: converges',
  },
  {
    fault: 'connection dropped mid-response (after the write was applied)',
    planFaults: [{ type: 'drop-mid', share: 0.3 }],
    plan: { kind: 'converges' },
    applyFaults: [{ type: 'drop-mid', share: 0.3 }],
    apply: { kind: 'converges' },
    words: 'retried; the write is sent again with the same body, which sets the same values: converges, each change in effect once',
  },
  {
    fault: 'answers slower than the timeout (a burst)',
    planFaults: [{ type: 'slow', count: 2, delayMs: 3_000 }],
    plan: { kind: 'converges' },
    applyFaults: [{ type: 'slow', count: 1, method: 'GET', delayMs: 3_000 }, { type: 'slow', count: 2, method: 'PATCH', delayMs: 3_000 }, { type: 'slow', count: 1, method: 'PUT', delayMs: 3_000 }],
    apply: { kind: 'converges' },
    env: { SCANSYNC_TIMEOUT_MS: TIMEOUT_MS },
    words: 'the attempt times out and is retried: converges',
  },
  {
    fault: 'answers slower than the timeout (every attempt of one write)',
    planFaults: [{ type: 'slow', delayMs: 3_000 }],
    plan: { kind: 'error', message: /^Error: (?:\d reads failed:\n {2})?(the (target|asset) list|agent HardAgt0000\d): no complete answer from the service within 1 s \(3 attempts\)$/m },
    applyFaults: [{ type: 'slow', delayMs: 3_000, ...victim }],
    apply: { kind: 'error', landed: true, message: /no complete answer from the service within 1 s \(3 attempts\); it may or may not have been applied: run scansync plan to see$/ },
    env: { SCANSYNC_TIMEOUT_MS: TIMEOUT_MS, SCANSYNC_MAX_ATTEMPTS: '3' },
    words: 'a timeout after the last attempt, naming the resource; for a write, the report says it may have been applied (it was); exit 1',
  },
  {
    fault: '502 with an HTML body (a proxy page)',
    planFaults: [{ type: '502-html', count: 3 }],
    plan: { kind: 'converges' },
    applyFaults: [{ type: '502-html', ...victim }],
    apply: { kind: 'error', message: /: service unavailable \(HTTP 502\) after 4 attempts; it may or may not have been applied: run scansync plan to see$/ },
    words: 'retried like any 502; after the last attempt "service unavailable (HTTP 502)", no HTML and no parse error, and for a write that it may have been applied (a gateway does not know); exit 1',
  },
  {
    fault: 'truncated body (Content-Length longer than the body)',
    planFaults: [{ type: 'truncate', share: 0.3 }],
    plan: { kind: 'converges' },
    applyFaults: [{ type: 'truncate', ...victim }],
    apply: { kind: 'error', landed: true, message: /the service answered HTTP 200 with a body cut off before its end on all 4 attempts; it may or may not have been applied: run scansync plan to see$/ },
    words: 'retried; cut off on every attempt of a write: that change is reported as possibly applied (it was); exit 1',
  },
  {
    fault: 'a 200 whose body is not the resource',
    planFaults: [{ type: 'not-resource', count: 1, path: '/scanning-agents/' }],
    plan: { kind: 'error', message: /^Error: agent HardAgt0000\d: the service's answer to GET \/scanning-agents\/HardAgt0000\d\/ is not that resource$/m },
    applyFaults: [{ type: 'not-resource', ...victim }],
    apply: { kind: 'error', message: /the service answered 200 with something other than the resource, so the change may or may not have landed; run scansync plan to see$/ },
    words: 'not taken for the resource (nor for a success): a clear error naming it; exit 1',
  },
]
