/**
 * Stops a client sending once the service is gone: after `limit` connection failures in a row
 * (refused, reset, host not found) with no answer in between, the breaker opens for the rest of
 * the client's life. Requests not yet sent then end at once as not sent, and those waiting to
 * retry stop waiting, so a run against a service that died ends in seconds with a report, not
 * after every request has spent its attempts and backoff on its own.
 *
 * It stays open: a command run is short, and half of an apply sent after the service came back
 * would be harder to reason about than a report and a new plan.
 */
import { describeNetworkError, errorCode } from './retry-policy.js'

/** Failures of the connection itself: no answer of any kind came back. */
const CONNECTION_FAILURES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
])

export const isConnectionFailure = (error: unknown): boolean => CONNECTION_FAILURES.has(errorCode(error) ?? '')

export class CircuitBreaker {
  private failures = 0
  private last: unknown
  private readonly opened = new AbortController()

  constructor(
    private readonly limit: number,
    /** "the service at ORIGIN", and the proxy it is reached through. */
    private readonly service: string,
  ) {}

  /** Aborted when the breaker opens: waits for a retry follow it. */
  get signal(): AbortSignal {
    return this.opened.signal
  }

  get open(): boolean {
    return this.opened.signal.aborted
  }

  /** Why nothing more is sent, for messages. */
  get reason(): string {
    return `${this.service} stopped answering (${this.failures} connection failures in a row, the last: ${describeNetworkError(this.last)})`
  }

  /** Any answer from the service, whatever its status. */
  answered(): void {
    if (!this.open) this.failures = 0
  }

  connectionFailed(error: unknown): void {
    if (this.open) return
    this.failures++
    this.last = error
    if (this.failures >= this.limit) this.opened.abort()
  }
}
