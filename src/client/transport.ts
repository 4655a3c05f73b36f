/**
 * The HTTP transport: one keep-alive undici Pool for the service's origin, attempts bounded
 * by an adaptive limiter, and a retry loop of our own.
 *
 * Why not undici's RetryAgent: it clamps a long Retry-After to maxTimeout instead of giving
 * up, it cannot retry a body cut off after the headers arrived, it has no hook to slow
 * the other requests down on a 429, and we want one debug line and one count per attempt.
 */
import { setTimeout as sleep } from 'node:timers/promises'

import { loadProxyAgent, loadProxyPool, Pool, poolRequest } from './undici-pool.js'

import { followAbort, raceAbort } from './abort.js'
import { buildRequestTarget, checkRequestPath } from './base-url.js'
import { CircuitBreaker, isConnectionFailure } from './circuit-breaker.js'
import { AdaptiveConcurrency } from './concurrency.js'
import { formatAttemptLine } from './debug.js'
import { NotSentError, RetryAfterTooLongError, ScansyncError, type ServiceError, ServiceUnavailableError, TimeoutError, UnexpectedResponseError } from './errors.js'
import { type ClientOptions, resolveOptions } from './options.js'
import { proxyLoginWithoutPassword, proxySecrets } from './proxy.js'
import { SENSITIVE } from '../core/types.js'
import { clientRedaction } from './redact.js'
import { errorForResponse, parseJson, type RequestContext, type ResponseHeaders, subjectOf, unusableBodyError } from './responses.js'
import {
  backoffDelay,
  describeNetworkError,
  errorCode,
  formatDuration,
  isRetryableError,
  OUT_OF_DESCRIPTORS,
  parseRetryAfter,
  RETRYABLE_STATUSES,
} from './retry-policy.js'

export type Method = 'GET' | 'PATCH' | 'PUT' | 'POST'

export interface RequestOptions {
  /** Sent as a JSON string, the same bytes on every attempt. */
  body?: unknown
  query?: Record<string, string | number>
  /** Words naming the resource for error messages, e.g. "target 2DZkoZH8WMEM". */
  resource?: string
  /** Aborting rejects the request with the signal's reason, at once, whatever it is waiting for. */
  signal?: AbortSignal
  /**
   * Aborting stops the request from sending anything more (Ctrl-C): an attempt on the wire is
   * waited for, but none starts after it. Not yet sent: NotSentError. Waiting to retry: the last
   * attempt's error, marked "(interrupted: not retried)".
   */
  stop?: AbortSignal
}

export interface ClientStats {
  /** Calls of request(). */
  readonly requests: number
  /** HTTP attempts sent. */
  readonly attempts: number
  /** Attempts that were followed by another one. */
  readonly retries: number
  /** The most attempts in flight at once. */
  readonly maxInFlight: number
  /** The concurrency allowed now: the parallelism, or less while the service answers 429. */
  readonly concurrency: number
  /** Characters of answer text read so far (bytes, for ASCII): what a run's read cap counts. */
  readonly bytesRead: number
}

export interface ServiceClient {
  /** The parsed JSON body of a 2xx answer; anything else is thrown as a ScansyncError. */
  request<T = unknown>(method: Method, path: string, options?: RequestOptions): Promise<T>
  readonly stats: ClientStats
  /** Destroys the connection pool; requests still running reject. */
  close(): Promise<void>
}

type AttemptResult =
  | { kind: 'response'; status: number; headers: ResponseHeaders; text: string }
  /** The headers came, the body broke off. */
  | { kind: 'truncated'; status: number; headers: ResponseHeaders; error: unknown }
  | { kind: 'timeout' }
  | { kind: 'network'; error: unknown }

type Decision =
  | { kind: 'return'; value: unknown }
  | { kind: 'throw'; error: ServiceError }
  | { kind: 'retry'; delayMs: number; why: string }

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'])

/** "64 MB", "512 KB", "100 bytes". */
const formatBytes = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${Number((bytes / (1024 * 1024)).toFixed(1))} MB` : bytes >= 1024 ? `${Number((bytes / 1024).toFixed(1))} KB` : `${bytes} bytes`

class ClientClosedError extends ScansyncError {
  constructor() {
    super('the HTTP client was closed before the request finished')
  }
}

export function createClient(options: ClientOptions): ServiceClient {
  const o = resolveOptions(options)
  const redaction = clientRedaction(o.token, o.redaction, proxySecrets(o.proxy))
  const clean = redaction.redact
  const origin = o.base.origin
  const connection = {
    connections: o.parallelism,
    headersTimeout: o.timeoutMs,
    bodyTimeout: o.timeoutMs,
    // A body longer than this is cut short by undici (UND_ERR_RES_EXCEEDED_MAX_SIZE), not read into memory.
    maxResponseSize: o.maxResponseBytes,
  }
  // Through a proxy: a tunnel (CONNECT) to the service's origin for each connection, then the same exchanges.
  const pool = o.proxy
    ? new (loadProxyAgent())({
        ...connection,
        uri: o.proxy.url.href,
        ...(proxyLoginWithoutPassword(o.proxy) === undefined ? {} : { token: proxyLoginWithoutPassword(o.proxy) }),
        proxyTls: { timeout: o.timeoutMs },
        requestTls: { timeout: o.timeoutMs },
        // The proxy's answer to CONNECT within the same time as any answer: undici's own default is 5 minutes, for each tunnel.
        clientFactory: (proxyOrigin, options) => new (loadProxyPool())(proxyOrigin, { ...options, headersTimeout: o.timeoutMs }),
      })
    : new Pool(origin, { ...connection, connect: { timeout: o.timeoutMs } })
  // Where a failure to connect happened, for its message: the proxy is named, never its credentials.
  const throughProxy = o.proxy ? ` through the proxy ${o.proxy.shown} (${o.proxy.variable})` : ''
  const reaching = `the service at ${origin}${throughProxy}`
  if (o.proxy && o.debug) o.debug(`requests to ${origin} go${throughProxy}`)
  const limiter = new AdaptiveConcurrency(o.parallelism)
  const breaker = new CircuitBreaker(o.connectionFailureLimit, reaching)
  const closing = new AbortController()
  const headers: Record<string, string> = {
    Authorization: `JWT ${o.token}`,
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'User-Agent': o.userAgent,
    // undici's ProxyAgent would otherwise write it into this object, shared by every request.
    ...(o.proxy ? { host: o.base.host } : {}),
  }
  // A plain object (not getters) so that callers can print or serialise it as it is.
  const counts = { requests: 0, attempts: 0, retries: 0, maxInFlight: 0, concurrency: limiter.allowed, bytesRead: 0 }
  const stats: ClientStats = counts
  let inFlight = 0
  let closed = false

  /** One HTTP exchange, headers and body within timeoutMs. Throws only when `signal` aborted. */
  async function attemptOnce(method: Method, target: string, body: string | undefined, signal: AbortSignal): Promise<AttemptResult> {
    const attempt = new AbortController()
    const unlink = followAbort(signal, attempt)
    const timer = setTimeout(() => attempt.abort(), o.timeoutMs)
    const timedOut = (error: unknown): boolean => !signal.aborted && (attempt.signal.aborted || TIMEOUT_CODES.has(errorCode(error) ?? ''))
    counts.attempts++
    inFlight++
    counts.maxInFlight = Math.max(counts.maxInFlight, inFlight)
    try {
      const response = await poolRequest(pool, { origin, path: target, method, headers, body, signal: attempt.signal })
      try {
        const text = await response.body.text()
        counts.bytesRead += text.length
        return { kind: 'response', status: response.statusCode, headers: response.headers, text }
      } catch (error) {
        if (signal.aborted || timedOut(error)) throw error
        return { kind: 'truncated', status: response.statusCode, headers: response.headers, error }
      }
    } catch (error) {
      if (signal.aborted) throw signal.reason
      if (timedOut(error)) return { kind: 'timeout' }
      return { kind: 'network', error }
    } finally {
      inFlight--
      clearTimeout(timer)
      unlink()
    }
  }

  /**
   * What to do after an attempt. `last`: no attempt may follow (the error of a last attempt is
   * wanted); `effects`: tell the limiter about 2xx and 429 (once per attempt).
   */
  function decide(result: AttemptResult, attempt: number, epoch: number, ctx: RequestContext, url: URL, last = attempt >= o.maxAttempts, effects = true): Decision {
    const subject = subjectOf(ctx)
    const backoff = (): number => backoffDelay(attempt - 1, o.backoff)

    // A timeout or a broken connection leaves a PATCH or PUT in an unknown state: it may have
    // been applied. Sending it again is safe because both set values (the same body gives the
    // same end state); this is why writes are retried like reads.
    if (result.kind === 'timeout') {
      if (!last) return { kind: 'retry', delayMs: backoff(), why: 'timeout' }
      return {
        kind: 'throw',
        error: new TimeoutError(
          clean(`${subject}: no complete answer from the service within ${formatDuration(o.timeoutMs)}${attemptsWords(attempt)}${throughProxy && `,${throughProxy}`}`),
          resourceField(ctx),
        ),
      }
    }
    // An answer too large to read: another attempt would get the same.
    if ((result.kind === 'network' || result.kind === 'truncated') && errorCode(result.error) === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
      return {
        kind: 'throw',
        error: new UnexpectedResponseError(
          clean(`${subject}: the service's answer is larger than ${formatBytes(o.maxResponseBytes)}, the most scansync reads; it was not read`),
          { ...(result.kind === 'truncated' ? { status: result.status } : {}), ...resourceField(ctx), cause: result.error },
        ),
      }
    }
    if (result.kind === 'network') {
      if (!last && isRetryableError(result.error)) return { kind: 'retry', delayMs: backoff(), why: describeNetworkError(result.error) }
      return {
        kind: 'throw',
        error: new ServiceUnavailableError(
          clean(`${subject}: could not reach ${reaching}: ${describeNetworkError(result.error)}${attemptsWords(attempt)}`),
          { ...resourceField(ctx), cause: result.error },
        ),
      }
    }

    const { status, headers: responseHeaders } = result
    const ok = status >= 200 && status < 300
    if (result.kind === 'truncated') {
      if (!ok && !RETRYABLE_STATUSES.has(status)) {
        // The status says it all; a body cut off only costs us the service's detail.
        return { kind: 'throw', error: errorForResponse({ status, headers: responseHeaders, text: '', url, attempts: attempt }, ctx) }
      }
      if (!last) return { kind: 'retry', delayMs: backoff(), why: 'body cut off' }
      return ok
        ? { kind: 'throw', error: unusableBodyError(status, responseHeaders, 'truncated', attempt, ctx) }
        : { kind: 'throw', error: errorForResponse({ status, headers: responseHeaders, text: '', url, attempts: attempt }, ctx) }
    }

    if (ok) {
      if (effects) limiter.succeeded()
      counts.concurrency = limiter.allowed
      const parsed = parseJson(result.text)
      if (parsed.ok) return { kind: 'return', value: parsed.value }
      if (parsed.reason === 'truncated' && !last) return { kind: 'retry', delayMs: backoff(), why: 'body cut off' }
      return { kind: 'throw', error: unusableBodyError(status, responseHeaders, parsed.reason, attempt, ctx) }
    }
    if (RETRYABLE_STATUSES.has(status)) {
      if (status === 429 && effects) {
        limiter.throttled(epoch)
        counts.concurrency = limiter.allowed
      }
      const retryAfter = parseRetryAfter(responseHeaders['retry-after'])
      if (retryAfter !== undefined && retryAfter > o.retryAfterCeilingMs) {
        return {
          kind: 'throw',
          error: new RetryAfterTooLongError(
            clean(
              `${subject}: the service asked to wait ${formatDuration(retryAfter)} before retrying (limit ${formatDuration(o.retryAfterCeilingMs)})`,
            ),
            { status, ...resourceField(ctx), retryAfterMs: retryAfter },
          ),
        }
      }
      if (!last) {
        return retryAfter === undefined
          ? { kind: 'retry', delayMs: backoff(), why: `HTTP ${status}` }
          : { kind: 'retry', delayMs: retryAfter, why: `HTTP ${status}, Retry-After` }
      }
    }
    return { kind: 'throw', error: errorForResponse({ status, headers: responseHeaders, text: result.text, url, attempts: attempt }, ctx) }
  }

  function resourceField(ctx: RequestContext): { resource?: string } {
    return ctx.resource === undefined ? {} : { resource: clean(ctx.resource) }
  }

  function attemptsWords(attempts: number): string {
    return attempts > 1 ? ` (${attempts} attempts)` : ''
  }

  function outcomeWords(result: AttemptResult): string {
    switch (result.kind) {
      case 'response':
        return String(result.status)
      case 'truncated':
        return `${result.status} with the body cut off (${describeNetworkError(result.error)})`
      case 'timeout':
        return 'timeout'
      case 'network':
        return describeNetworkError(result.error)
    }
  }

  async function request<T>(method: Method, path: string, requestOptions: RequestOptions = {}): Promise<T> {
    if (closed) throw new ClientClosedError()
    const ctx: RequestContext = {
      method,
      path: checkRequestPath(path),
      clean,
      withhold: () => redaction.withholds(),
      mentionsWeak: (text) => redaction.mentionsWeak(text),
      ...(requestOptions.resource === undefined ? {} : { resource: requestOptions.resource }),
    }
    const target = buildRequestTarget(o.base, path, requestOptions.query)
    const url = new URL(target, origin)
    const body = requestOptions.body === undefined ? undefined : JSON.stringify(requestOptions.body)
    const bodyBytes = body === undefined ? 0 : Buffer.byteLength(body)
    counts.requests++

    const controller = new AbortController()
    const unlinkUser = followAbort(requestOptions.signal, controller)
    const unlinkClose = followAbort(closing.signal, controller)
    const signal = controller.signal
    const stop = requestOptions.stop
    // The error to give if no further attempt may start (set while one is due).
    let stopped: ((why?: string) => ServiceError) | undefined
    const notSent = (why: string) => new NotSentError(`${subjectOf(ctx)}: not sent: ${why}`)
    try {
      for (let attempt = 1; ; attempt++) {
        const slot = limiter.run(async (epoch) => {
          if (signal.aborted) throw signal.reason
          if (stop?.aborted) throw stopped ? stopped() : notSent('interrupted before it started')
          if (breaker.open) throw stopped ? stopped('no further attempt: the service stopped answering') : notSent(breaker.reason)
          const started = performance.now()
          const result = await attemptOnce(method, target, body, signal)
          // A 429 lowers the concurrency before this slot is given back: otherwise p-limit starts
          // the next queued attempt at the old concurrency first (decide() comes after the release).
          if (result.kind === 'response' && result.status === 429) limiter.throttled(epoch)
          // No descriptor for another connection (`ulimit -n` below --parallelism): fewer at once, as
          // for a 429, so that the retry reuses a connection the pool holds open.
          if (result.kind === 'network' && OUT_OF_DESCRIPTORS.has(errorCode(result.error) ?? '')) {
            limiter.throttled(epoch)
            counts.concurrency = limiter.allowed
          }
          if (result.kind === 'response' || result.kind === 'truncated') breaker.answered()
          else if (result.kind === 'network' && isConnectionFailure(result.error)) breaker.connectionFailed(result.error)
          return { result, epoch, durationMs: performance.now() - started }
        })
        const { result, epoch, durationMs } = await raceAbort(slot, signal)
        // A POST creates: sent again after a lost answer it could create twice. Only a 429 (refused
        // before any processing) is retried; the caller looks up what a lost answer did.
        const onlyOnce = method === 'POST' && !(result.kind === 'response' && result.status === 429)
        const decision = decide(result, attempt, epoch, ctx, url, onlyOnce || undefined)
        if (o.debug) {
          o.debug(
            formatAttemptLine(
              {
                method,
                url: url.href,
                attempt,
                maxAttempts: o.maxAttempts,
                headers,
                bodyBytes,
                durationMs,
                outcome: outcomeWords(result),
                ...(decision.kind === 'retry' ? { next: `(${decision.why}: retrying in ${formatDuration(decision.delayMs)})` } : {}),
                // A weak secret of the run in its name (a created target's URL) cannot be replaced inside it: the name is left out.
                ...(ctx.resource === undefined ? {} : { resource: redaction.mentionsWeak(ctx.resource) ? SENSITIVE : ctx.resource }),
              },
              clean,
            ),
          )
        }
        if (decision.kind === 'return') return decision.value as T
        if (decision.kind === 'throw') throw decision.error
        stopped = (why = 'interrupted: not retried') => {
          const final = decide(result, attempt, epoch, ctx, url, true, false)
          const error = final.kind === 'throw' ? final.error : new ServiceUnavailableError(clean(`${subjectOf(ctx)}: ${outcomeWords(result)}`))
          error.message += ` (${why})`
          return error
        }
        if (stop?.aborted) throw stopped()
        if (breaker.open) throw stopped('no further attempt: the service stopped answering')
        counts.retries++
        const wake = new AbortController()
        const unlinkSignal = followAbort(signal, wake)
        const unlinkStop = followAbort(stop, wake)
        const unlinkBreaker = followAbort(breaker.signal, wake)
        try {
          await sleep(decision.delayMs, undefined, { signal: wake.signal })
        } catch {
          throw signal.aborted ? signal.reason : stop?.aborted ? stopped() : stopped('no further attempt: the service stopped answering')
        } finally {
          unlinkSignal()
          unlinkStop()
          unlinkBreaker()
        }
      }
    } finally {
      unlinkUser()
      unlinkClose()
    }
  }

  return {
    request,
    stats,
    async close() {
      if (closed) return
      closed = true
      closing.abort(new ClientClosedError())
      await pool.destroy()
    },
  }
}
