import type { IncomingHttpHeaders } from 'node:http'
import type { RecordedRequest, RequestTiming } from './types.js'

/** The log keeps the newest entries only, so that a long-running emulator does not grow without end. */
export const REQUEST_LOG_LIMIT = 100_000

/** What the emulator received, in arrival order; never the token. */
export class RequestLog {
  private entries: RecordedRequest[] = []
  /** When each entry arrived and was answered, kept beside the entries so the log itself stays as it was. */
  private readonly times = new WeakMap<RecordedRequest, RequestTiming>()

  /** Records a request as it arrives; the handler fills in body, status and fault. */
  start(method: string, path: string, query: Record<string, string>, headers: IncomingHttpHeaders): RecordedRequest {
    const entry: RecordedRequest = {
      method,
      path,
      query,
      body: undefined,
      headers: {
        authorization: headers.authorization !== undefined,
        contentType: headers['content-type'],
        accept: headers.accept,
        userAgent: headers['user-agent'],
      },
      status: 0,
    }
    if (this.entries.length >= REQUEST_LOG_LIMIT + REQUEST_LOG_LIMIT / 10) this.entries = this.entries.slice(-REQUEST_LOG_LIMIT)
    this.entries.push(entry)
    this.times.set(entry, { method, arrivedMs: performance.timeOrigin + performance.now() })
    return entry
  }

  /** Notes that the answer to `entry` has gone out (or the connection ended without one). */
  answered(entry: RecordedRequest): void {
    const time = this.times.get(entry)
    if (time && time.answeredMs === undefined) time.answeredMs = performance.timeOrigin + performance.now()
  }

  /** Arrival and answer times (epoch ms) of every logged request, in arrival order. */
  timings(): RequestTiming[] {
    return this.entries.map((entry) => ({ ...this.times.get(entry)! }))
  }

  all(): RecordedRequest[] {
    return this.entries.map((entry) => ({ ...entry, headers: { ...entry.headers } }))
  }

  clear(): void {
    this.entries = []
  }
}
