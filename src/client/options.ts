/** The client's options, their defaults, and their checks. */
import type { Redaction } from '../core/redaction.js'
import { checkBaseUrl } from './base-url.js'
import { UsageError } from './errors.js'
import { type Proxy, proxyFor } from './proxy.js'
import type { BackoffSettings } from './retry-policy.js'

export interface ClientOptions {
  /** e.g. https://api.example.com/api/v1 or http://127.0.0.1:PORT; request paths are appended. */
  baseUrl: string
  /** Sent as `Authorization: JWT <token>`; never logged, never in an error message. */
  token: string
  /** `scansync/<version>`. */
  userAgent: string
  /** Max requests in flight (default 8). */
  parallelism?: number
  /** Allow http:// to a non-loopback host. */
  insecureHttp?: boolean
  /** Per attempt, headers and body together (default 30 000). */
  timeoutMs?: number
  /** Total attempts per request (default 6). */
  maxAttempts?: number
  /** Exponential backoff with full jitter (default 500 / 10 000). */
  backoff?: BackoffSettings
  /** A Retry-After longer than this fails at once with RetryAfterTooLongError (default 120 000). */
  retryAfterCeilingMs?: number
  /** An answer larger than this is not read (default 64 MiB): a service that never ends its body cannot exhaust memory. */
  maxResponseBytes?: number
  /**
   * Connection failures in a row (refused, reset, host not found, with no answer between them)
   * after which the client sends nothing more (default 5): see circuit-breaker.ts.
   */
  connectionFailureLimit?: number
  /** Receives one line per HTTP attempt. */
  debug?: (line: string) => void
  /**
   * The environment the proxy variables are read from (HTTPS_PROXY, NO_PROXY…: proxy.ts);
   * without it, no proxy.
   */
  proxyEnv?: Readonly<Record<string, string | undefined>>
  /**
   * The run's redaction (the output step's): every text of the service passes through it
   * whole before it is shortened; the token is added to it.
   */
  redaction?: Redaction
}

export const DEFAULTS = {
  parallelism: 8,
  timeoutMs: 30_000,
  maxAttempts: 6,
  backoff: { baseMs: 500, maxMs: 10_000 },
  retryAfterCeilingMs: 120_000,
  maxResponseBytes: 64 * 1024 * 1024,
  connectionFailureLimit: 5,
} as const

export interface ResolvedOptions {
  base: URL
  token: string
  userAgent: string
  parallelism: number
  timeoutMs: number
  maxAttempts: number
  backoff: BackoffSettings
  retryAfterCeilingMs: number
  maxResponseBytes: number
  connectionFailureLimit: number
  /** The proxy the requests go through, if any. */
  proxy?: Proxy
  debug?: (line: string) => void
  redaction?: Redaction
}

/** Node's timers cannot wait longer than this (about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647

function positiveInteger(value: number | undefined, fallback: number, what: string, max = MAX_TIMER_MS): number {
  if (value === undefined) return fallback
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new UsageError(`${what} must be a whole number from 1 to ${max}, got ${value}`)
  }
  return value
}

function nonNegative(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback
  if (!Number.isFinite(value) || value < 0 || value > MAX_TIMER_MS) {
    throw new UsageError(`${what} must be a number from 0 to ${MAX_TIMER_MS}, got ${value}`)
  }
  return value
}

export function resolveOptions(options: ClientOptions): ResolvedOptions {
  if (typeof options.token !== 'string' || options.token === '') {
    throw new UsageError('no API token: set SCANSYNC_API_TOKEN')
  }
  // A header value must be visible ASCII; say so without showing the value.
  if (!/^[\x21-\x7e]+$/.test(options.token)) {
    throw new UsageError('SCANSYNC_API_TOKEN contains spaces, line breaks or other characters that cannot be sent in a header')
  }
  const backoff = options.backoff ?? DEFAULTS.backoff
  const base = checkBaseUrl(options.baseUrl, { insecureHttp: options.insecureHttp ?? false })
  const proxy = options.proxyEnv === undefined ? undefined : proxyFor(base, options.proxyEnv)
  return {
    base,
    token: options.token,
    userAgent: options.userAgent,
    parallelism: positiveInteger(options.parallelism, DEFAULTS.parallelism, 'parallelism'),
    timeoutMs: positiveInteger(options.timeoutMs, DEFAULTS.timeoutMs, 'the request timeout (ms)'),
    maxAttempts: positiveInteger(options.maxAttempts, DEFAULTS.maxAttempts, 'the number of attempts'),
    backoff: {
      baseMs: nonNegative(backoff.baseMs, DEFAULTS.backoff.baseMs, 'the backoff base (ms)'),
      maxMs: nonNegative(backoff.maxMs, DEFAULTS.backoff.maxMs, 'the backoff maximum (ms)'),
    },
    retryAfterCeilingMs: nonNegative(options.retryAfterCeilingMs, DEFAULTS.retryAfterCeilingMs, 'the Retry-After ceiling (ms)'),
    maxResponseBytes: positiveInteger(options.maxResponseBytes, DEFAULTS.maxResponseBytes, 'the largest answer read (bytes)', Number.MAX_SAFE_INTEGER),
    connectionFailureLimit: positiveInteger(options.connectionFailureLimit, DEFAULTS.connectionFailureLimit, 'the connection failures in a row before giving up', 1_000_000),
    ...(proxy ? { proxy } : {}),
    ...(options.debug ? { debug: options.debug } : {}),
    ...(options.redaction ? { redaction: options.redaction } : {}),
  }
}
