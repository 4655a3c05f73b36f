/**
 * The HTTP client of scansync: `createClient(options).request(method, path, options)`.
 *
 * Defaults: parallelism 8, timeout 30 s per attempt (headers and body), 6 attempts, backoff
 * 500 ms doubling to 10 s with full jitter, Retry-After honoured up to 120 s (longer fails at
 * once). Retried: 429, 502, 503, 504, connection failures, cut-off bodies, timeouts; GET,
 * PATCH and PUT alike (see retry-policy.ts). Redirects are never followed.
 */
export { basePath, buildRequestTarget, checkBaseUrl, checkRequestPath, isLoopbackHost } from './base-url.js'
export { AdaptiveConcurrency } from './concurrency.js'
export { describeHeaders, REDACTED_AUTHORIZATION } from './debug.js'
export {
  AuthenticationError,
  type FieldProblem,
  MethodNotAllowedError,
  NotFoundError,
  NotSentError,
  RetryAfterTooLongError,
  ScansyncError,
  ServiceError,
  ServiceUnavailableError,
  TimeoutError,
  UnexpectedResponseError,
  UsageError,
  ValidationError,
} from './errors.js'
export { type ClientOptions, DEFAULTS } from './options.js'
export { clientRedaction, type Redactor } from './redact.js'
export { cleanJson, flattenFieldErrors, parseJson } from './responses.js'
export {
  backoffDelay,
  parseRetryAfter,
  RETRYABLE_ERROR_CODES,
  RETRYABLE_STATUSES,
  type BackoffSettings,
} from './retry-policy.js'
export { type ClientStats, createClient, type Method, type RequestOptions, type ServiceClient } from './transport.js'
