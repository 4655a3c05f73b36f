/**
 * The `--debug` line of one HTTP attempt. The token is shown as "JWT (redacted)", request
 * bodies only by their size (they may hold secrets), and the whole line goes through the
 * redactor as well.
 */
import { formatDuration } from './retry-policy.js'
import type { Redactor } from './redact.js'

export const REDACTED_AUTHORIZATION = 'JWT (redacted)'

/** The request headers as they may be shown: Authorization replaced. */
export function describeHeaders(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${name.toLowerCase() === 'authorization' ? REDACTED_AUTHORIZATION : value}`)
    .join(', ')
}

export interface AttemptLine {
  method: string
  url: string
  attempt: number
  maxAttempts: number
  headers: Record<string, string>
  bodyBytes: number
  durationMs: number
  /** "200", "429", or a failure such as "connection reset (ECONNRESET)", "timeout". */
  outcome: string
  /** e.g. "retrying in 250 ms (Retry-After)". */
  next?: string
  /** The resource the request is for, as errors name it (`target "https://…/"`): a creation's path does not say. */
  resource?: string
}

export function formatAttemptLine(line: AttemptLine, clean: Redactor): string {
  const parts = [
    `${line.method} ${line.url}`,
    `attempt ${line.attempt}/${line.maxAttempts}`,
    `-> ${line.outcome} in ${formatDuration(line.durationMs)}`,
    `[${describeHeaders(line.headers)}]`,
    `request body ${line.bodyBytes} bytes`,
  ]
  if (line.next) parts.push(line.next)
  if (line.resource !== undefined) parts.push(`for ${line.resource}`)
  return clean(parts.join(' '))
}
