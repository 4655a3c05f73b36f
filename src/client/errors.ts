/**
 * The service's errors, subclasses of core's ScansyncError. Every message is fit to print as is: it is built
 * from redacted text and names the resource when the caller gave one.
 */

import { ScansyncError } from '../core/errors.js'

export { ScansyncError, UsageError } from '../core/errors.js'

export interface ServiceErrorDetails {
  status?: number
  resource?: string
  cause?: unknown
}

/** The service answered (or failed to answer) in a way we cannot use. */
export class ServiceError extends ScansyncError {
  readonly status?: number
  readonly resource?: string

  constructor(message: string, details: ServiceErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause })
    if (details.status !== undefined) this.status = details.status
    if (details.resource !== undefined) this.resource = details.resource
  }
}

/** 401 or 403. */
export class AuthenticationError extends ServiceError {}

/** 404. */
export class NotFoundError extends ServiceError {}

/** 405: the endpoint exists but not for this method (list endpoints of some deployments). */
export class MethodNotAllowedError extends ServiceError {}

export interface FieldProblem {
  /** Dotted path of the field, array items as numbers: `site.name`, `labels.1.name`; "" for the whole request. */
  path: string
  messages: string[]
}

/** 400 (or 422): the service refused the request body. */
export class ValidationError extends ServiceError {
  /** The DRF body without its `detail`, e.g. `{"site": {"name": ["…"]}}` (redacted). */
  readonly fieldErrors: Record<string, unknown>
  readonly detail?: string
  /** The field errors flattened: `[{path: "site.name", messages: ["…"]}]`. */
  readonly problems: FieldProblem[]

  constructor(
    message: string,
    details: ServiceErrorDetails & { fieldErrors: Record<string, unknown>; detail?: string; problems: FieldProblem[] },
  ) {
    super(message, details)
    this.fieldErrors = details.fieldErrors
    if (details.detail !== undefined) this.detail = details.detail
    this.problems = details.problems
  }
}

/** 5xx or 429 after the last attempt, a 502 with an HTML body, connection failures after retries. */
export class ServiceUnavailableError extends ServiceError {}

/** The service asked (Retry-After) to wait longer than we are willing to. */
export class RetryAfterTooLongError extends ServiceUnavailableError {
  readonly retryAfterMs: number

  constructor(message: string, details: ServiceErrorDetails & { retryAfterMs: number }) {
    super(message, details)
    this.retryAfterMs = details.retryAfterMs
  }
}

/** No complete answer within the per-attempt timeout, on every attempt. */
export class TimeoutError extends ServiceUnavailableError {}

/** A 2xx that is not JSON, a body cut off on every attempt, a redirect, a 4xx we have no class for. */
export class UnexpectedResponseError extends ServiceError {}

/** The request was stopped (RequestOptions.stop) before its first attempt went out: nothing was sent. */
export class NotSentError extends ScansyncError {}
