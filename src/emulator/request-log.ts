import type { IncomingHttpHeaders } from 'node:http'
import type { RecordedRequest } from './types.js'

/** The log keeps the newest entries only, so that a long-running emulator does not grow without end. */
export const REQUEST_LOG_LIMIT = 100_000

/** What the emulator received, in arrival order; never the token. */
export class RequestLog {
  private entries: RecordedRequest[] = []

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
    return entry
  }

  all(): RecordedRequest[] {
    return this.entries.map((entry) => ({ ...entry, headers: { ...entry.headers } }))
  }

  clear(): void {
    this.entries = []
  }
}
