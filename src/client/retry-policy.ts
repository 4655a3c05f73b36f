/**
 * What is retried, and how long to wait. Pure functions: the transport asks, this answers.
 *
 * Retried: 429, 502, 503, 504, connection failures (reset, refused, closed, unreachable),
 * a connection that could not be opened for want of a file descriptor (EMFILE, ENFILE: the
 * transport also lowers the concurrency, so that another attempt reuses a connection already
 * open), bodies cut off in transfer, and attempts slower than the timeout. GET, PATCH and PUT are
 * all retried: the service's PATCH and PUT set values rather than add to them, so sending
 * one again after an unknown outcome leaves the same state.
 *
 * Not retried: 500 (a fault in the service that the same request is likely to hit again; it
 * is reported at once, so a broken request does not cost six attempts and a minute of
 * backoff), other 4xx, 3xx, 2xx with a body that is not JSON, and errors that another try
 * cannot fix (host not found, TLS certificate problems).
 */

export interface BackoffSettings {
  baseMs: number
  maxMs: number
}

export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504])

/** Error codes of node:net and undici worth another attempt. */
export const RETRYABLE_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENETRESET',
  'EAI_AGAIN',
  'EMFILE',
  'ENFILE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
])

const ERROR_WORDS: Record<string, string> = {
  ECONNRESET: 'connection reset',
  ECONNREFUSED: 'connection refused',
  ECONNABORTED: 'connection aborted',
  EPIPE: 'connection broken',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  EHOSTDOWN: 'host down',
  ENETUNREACH: 'network unreachable',
  ENETDOWN: 'network down',
  ENETRESET: 'connection reset by the network',
  EAI_AGAIN: 'temporary DNS failure',
  ENOTFOUND: 'host not found',
  EMFILE: 'too many open files (EMFILE): lower --parallelism or raise the limit of open files (ulimit -n)',
  ENFILE: 'too many open files in the system (ENFILE): lower --parallelism',
  UND_ERR_SOCKET: 'connection closed by the other side',
  UND_ERR_CLOSED: 'connection closed',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no answer in time',
  UND_ERR_BODY_TIMEOUT: 'answer too slow',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'answer cut off',
  // TLS: what a network with its own certificate authority (TLS inspection) or a wrong scheme gives.
  DEPTH_ZERO_SELF_SIGNED_CERT: "the service's TLS certificate is self-signed and not trusted",
  SELF_SIGNED_CERT_IN_CHAIN: "the service's TLS certificate chain ends in a certificate authority that is not trusted",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "the service's TLS certificate was issued by a certificate authority that is not trusted",
  UNABLE_TO_GET_ISSUER_CERT: "the service's TLS certificate was issued by a certificate authority that is not trusted",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the service's TLS certificate could not be verified: its issuer is not trusted",
  CERT_HAS_EXPIRED: "the service's TLS certificate has expired",
  CERT_NOT_YET_VALID: "the service's TLS certificate is not valid yet",
  ERR_TLS_CERT_ALTNAME_INVALID: "the service's TLS certificate is not for this host name",
  ERR_SSL_WRONG_VERSION_NUMBER: 'the other side does not speak TLS (an http:// service at an https:// URL?)',
}

/** The most specific error code of an error or its causes (`ECONNRESET`, `UND_ERR_SOCKET`, …). */
export function errorCode(error: unknown): string | undefined {
  let current: unknown = error
  let found: string | undefined
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string') {
      // Prefer a system error code (ECONNRESET) over undici's wrapper (UND_ERR_SOCKET).
      if (!code.startsWith('UND_ERR') || found === undefined) found = code
      if (!code.startsWith('UND_ERR')) break
    }
    current = (current as { cause?: unknown }).cause
  }
  return found
}

export function isRetryableError(error: unknown): boolean {
  const refusal = proxyRefusal(error)
  if (refusal !== undefined) return RETRYABLE_STATUSES.has(refusal)
  let current: unknown = error
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && RETRYABLE_ERROR_CODES.has(code)) return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}

const PROXY_STATUS_WORDS: Readonly<Record<number, string>> = {
  403: 'forbidden',
  407: "proxy authentication required: put the proxy's user name and password in the proxy variable's URL",
  502: 'bad gateway',
  503: 'service unavailable',
  504: 'gateway timeout',
}

/**
 * The status a proxy answered the request for a tunnel (CONNECT) with, when that is why an attempt
 * failed: undici's ProxyAgent gives no code of its own for it, only these words (pinned with undici;
 * test/client/proxy.test.ts).
 */
export function proxyRefusal(error: unknown): number | undefined {
  const found = error instanceof Error ? /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling$/.exec(error.message) : null
  return found ? Number(found[1]) : undefined
}

/** The system had no file descriptor for a new connection: nothing was sent, and fewer connections at once would do. */
export const OUT_OF_DESCRIPTORS: ReadonlySet<string> = new Set(['EMFILE', 'ENFILE'])

/** A short phrase for a connection failure: "connection refused (ECONNREFUSED)". */
export function describeNetworkError(error: unknown): string {
  const refusal = proxyRefusal(error)
  if (refusal !== undefined) {
    const words = PROXY_STATUS_WORDS[refusal]
    return `the proxy refused the connection with HTTP ${refusal}${words ? ` (${words})` : ''}`
  }
  const code = errorCode(error)
  if (code !== undefined) {
    const words = ERROR_WORDS[code]
    return words ? (words.includes(`(${code})`) ? words : `${words} (${code})`) : code
  }
  const limit = processLimit(error)
  if (limit !== undefined) return limit
  return error instanceof Error && error.message !== '' ? error.message : 'connection failed'
}

/**
 * undici parses HTTP with llhttp compiled to WebAssembly, whose memory V8 reserves with 8 GB of
 * guard pages: under a limit of virtual memory (`ulimit -v`) that reservation fails, and under
 * `--jitless` there is no WebAssembly. Neither is the service's doing: said as what to change.
 */
function processLimit(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : ''
  if (/Cannot allocate Wasm memory/i.test(message)) {
    return "the HTTP client's WebAssembly parser could not reserve its memory under this process's limit of virtual memory (ulimit -v): raise the limit, or run with NODE_OPTIONS=--disable-wasm-trap-handler"
  }
  if (/WebAssembly is not defined/.test(message)) return "the HTTP client's parser needs WebAssembly, which node runs without here (--jitless?)"
  return undefined
}

/**
 * `Retry-After` in milliseconds: a number of seconds, or an HTTP date (a date in the past is 0).
 * Anything else is ignored (undefined), and our own backoff applies.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim()
  if (text === undefined || text === '') return undefined
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000)
  // An HTTP date has a weekday and "GMT"; refuse bare numbers with signs and the like.
  if (!/[a-z]/i.test(text)) return undefined
  const at = Date.parse(text)
  if (Number.isNaN(at)) return undefined
  return Math.max(0, at - now)
}

/**
 * Exponential backoff with full jitter: a uniform delay in [0, min(maxMs, baseMs·2^retry)],
 * `retry` counting from 0 for the first retry.
 */
export function backoffDelay(retry: number, backoff: BackoffSettings, random: () => number = Math.random): number {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(retry, 30))
  return Math.floor(random() * ceiling)
}

const YEAR_MS = 365 * 86_400_000

/** "3600 s", "1.5 s", "250 ms"; "more than a year" (a Retry-After of hundreds of digits is Infinity, and 1e+23 s is no words). */
export function formatDuration(ms: number): string {
  if (!(ms <= YEAR_MS)) return 'more than a year'
  if (ms < 1000) return `${Math.round(ms)} ms`
  const seconds = ms / 1000
  return `${Number.isInteger(seconds) ? seconds : Number(seconds.toFixed(1))} s`
}
