/**
 * Turning an answer of the service into a value or into one of our errors. Every text taken
 * from the service goes through `clean` (token + caller's redaction) before it reaches a
 * message or an error's fields.
 */
import {
  AuthenticationError,
  type FieldProblem,
  MethodNotAllowedError,
  NotFoundError,
  type ServiceError,
  ServiceUnavailableError,
  UnexpectedResponseError,
  ValidationError,
} from './errors.js'
import type { Redactor } from './redact.js'
import { isObject } from '../core/json.js'

export interface RequestContext {
  method: string
  /** The request path relative to the base URL (no query). */
  path: string
  resource?: string
  clean: Redactor
}

export type ResponseHeaders = Record<string, string | string[] | undefined>

const MAX_DETAIL = 300

/** "target 2DZkoZH8WMEM" when the caller named the resource, else "GET /targets/x/". */
export function subjectOf(ctx: RequestContext): string {
  return ctx.clean(ctx.resource ?? `${ctx.method} ${ctx.path}`)
}

function header(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

function looksLikeHtml(text: string, headers: ResponseHeaders): boolean {
  return /html/i.test(header(headers, 'content-type') ?? '') || /^\s*</.test(text)
}

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > MAX_DETAIL ? `${flat.slice(0, MAX_DETAIL)}…` : flat
}

export type JsonParse = { ok: true; value: unknown } | { ok: false; reason: 'empty' | 'truncated' | 'not-json' }

/**
 * Parses a body as JSON. A body that starts like JSON and ends too early is "truncated" (worth
 * another attempt); anything else that does not parse is "not-json".
 */
export function parseJson(text: string): JsonParse {
  if (text.trim() === '') return { ok: false, reason: 'empty' }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (error) {
    const message = error instanceof Error ? error.message : ''
    const startsLikeJson = /^\s*[[{"]/.test(text)
    // V8 says "Unexpected end of JSON input", or names a position: at the very end means cut off.
    const position = /at position (\d+)/.exec(message)
    const endedEarly = /end of JSON input/i.test(message) || (position !== null && Number(position[1]) >= text.trimEnd().length)
    return { ok: false, reason: startsLikeJson && endedEarly ? 'truncated' : 'not-json' }
  }
}

/** Deep copy of a JSON value with every string (keys included) passed through `clean`. */
export function cleanJson(value: unknown, clean: Redactor): unknown {
  if (typeof value === 'string') return clean(value)
  if (Array.isArray(value)) return value.map((item) => cleanJson(item, clean))
  if (isObject(value)) {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(out, clean(key), { value: cleanJson(item, clean), enumerable: true, writable: true, configurable: true })
    }
    return out
  }
  return value
}

/**
 * Flattens a DRF error body: `{"site": {"name": ["x"]}}` → `[{path: "site.name", messages: ["x"]}]`.
 * `non_field_errors` belong to the object that holds them; list items get their index
 * (`labels.1.name`); `{code, message}` objects count as their message.
 */
export function flattenFieldErrors(body: unknown): FieldProblem[] {
  const byPath = new Map<string, string[]>()
  const add = (path: string, message: string): void => {
    const list = byPath.get(path)
    if (list) list.push(message)
    else byPath.set(path, [message])
  }
  const join = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`)

  const walk = (value: unknown, path: string, depth: number): void => {
    if (depth > 32 || value === null || value === undefined) return
    if (typeof value === 'string') return add(path, value)
    if (typeof value === 'number' || typeof value === 'boolean') return add(path, String(value))
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        if (typeof item === 'object' && item !== null && !isMessageObject(item)) walk(item, join(path, String(index)), depth + 1)
        else walk(item, path, depth + 1)
      })
      return
    }
    if (isMessageObject(value)) return add(path, value.message)
    if (isObject(value)) {
      for (const [key, item] of Object.entries(value)) {
        walk(item, key === 'non_field_errors' ? path : join(path, key), depth + 1)
      }
    }
  }
  walk(body, '', 0)
  return [...byPath].map(([path, messages]) => ({ path, messages }))
}

function isMessageObject(value: unknown): value is { message: string } {
  return (
    isObject(value) &&
    typeof value.message === 'string' &&
    Object.keys(value).every((key) => key === 'message' || key === 'code' || key === 'detail')
  )
}

/** The service's own words from an error body, if it has any we can show (never HTML). */
function serviceDetail(text: string, headers: ResponseHeaders): string | undefined {
  const parsed = parseJson(text)
  if (parsed.ok) {
    const value = parsed.value
    if (typeof value === 'string') return shorten(value)
    if (isObject(value)) {
      for (const key of ['detail', 'message', 'error']) {
        if (typeof value[key] === 'string' && value[key] !== '') return shorten(value[key] as string)
      }
    }
    const problems = flattenFieldErrors(value)
    return problems.length > 0 ? shorten(formatProblems(problems)) : undefined
  }
  if (parsed.reason === 'empty' || looksLikeHtml(text, headers)) return undefined
  return shorten(text)
}

function formatProblems(problems: FieldProblem[]): string {
  return problems.map((p) => (p.path === '' ? p.messages.join(' ') : `${p.path}: ${p.messages.join(' ')}`)).join('; ')
}

function withDetail(message: string, detail: string | undefined): string {
  return detail === undefined ? message : `${message}: ${detail}`
}

function locationOrigin(headers: ResponseHeaders, requestUrl: URL): string {
  const location = header(headers, 'location')
  if (location === undefined || location === '') return 'no location'
  try {
    return new URL(location, requestUrl).origin
  } catch {
    return 'an invalid location'
  }
}

export interface ErrorResponse {
  status: number
  headers: ResponseHeaders
  text: string
  /** The full URL of the request, to resolve a relative Location against. */
  url: URL
  attempts: number
}

/** The error for a final non-2xx answer. */
export function errorForResponse(response: ErrorResponse, ctx: RequestContext): ServiceError {
  const { status, headers, text } = response
  const subject = subjectOf(ctx)
  const base = { status, ...(ctx.resource === undefined ? {} : { resource: ctx.clean(ctx.resource) }) }
  const detail = (): string | undefined => {
    const words = serviceDetail(text, headers)
    return words === undefined ? undefined : ctx.clean(words)
  }
  const finish = (message: string): string => ctx.clean(message)

  if (status >= 300 && status < 400) {
    return new UnexpectedResponseError(
      finish(`${subject}: the service answered with a redirect (HTTP ${status}) to ${locationOrigin(headers, response.url)}; redirects are not followed`),
      base,
    )
  }
  if (status === 401 || status === 403) {
    // The service's detail is left out: it rarely helps and might quote the credentials.
    return new AuthenticationError(finish(`${subject}: authentication failed (HTTP ${status}): check SCANSYNC_API_TOKEN`), base)
  }
  if (status === 404) {
    const message = ctx.resource === undefined ? `${subject}: not found (HTTP 404)` : `${subject} not found`
    return new NotFoundError(finish(message), base)
  }
  if (status === 405) {
    return new MethodNotAllowedError(finish(`${subject}: method ${ctx.method} not allowed (HTTP 405)`), base)
  }
  if (status === 400 || status === 422) return validationError(response, ctx, base)
  if (status === 429 || status === 502 || status === 503 || status === 504) {
    const tries = response.attempts > 1 ? ` after ${response.attempts} attempts` : ''
    return new ServiceUnavailableError(finish(withDetail(`${subject}: service unavailable (HTTP ${status})${tries}`, detail())), base)
  }
  if (status >= 500) {
    return new ServiceUnavailableError(finish(withDetail(`${subject}: the service failed (HTTP ${status})`, detail())), base)
  }
  return new UnexpectedResponseError(finish(withDetail(`${subject}: unexpected answer (HTTP ${status})`, detail())), base)
}

function validationError(
  response: ErrorResponse,
  ctx: RequestContext,
  base: { status: number; resource?: string },
): ValidationError {
  const parsed = parseJson(response.text)
  let fieldErrors: Record<string, unknown> = {}
  let detail: string | undefined
  let problems: FieldProblem[] = []
  if (parsed.ok) {
    const body = cleanJson(parsed.value, ctx.clean)
    if (isObject(body)) {
      const { detail: bodyDetail, ...rest } = body
      if (typeof bodyDetail === 'string') detail = bodyDetail
      else if (bodyDetail !== undefined) rest.detail = bodyDetail
      fieldErrors = rest
    } else if (typeof body === 'string') {
      detail = body
    } else {
      fieldErrors = { non_field_errors: body }
    }
    problems = flattenFieldErrors(fieldErrors)
  } else if (parsed.reason !== 'empty' && !looksLikeHtml(response.text, response.headers)) {
    detail = ctx.clean(shorten(response.text))
  }
  const parts = [...(detail === undefined ? [] : [detail]), ...(problems.length > 0 ? [formatProblems(problems)] : [])]
  const message = ctx.clean(
    `${subjectOf(ctx)}: the service rejected the request (HTTP ${response.status})${parts.length > 0 ? `: ${parts.join('; ')}` : ''}`,
  )
  return new ValidationError(message, { ...base, fieldErrors, ...(detail === undefined ? {} : { detail }), problems })
}

/** The error for a 2xx whose body we cannot use. */
export function unusableBodyError(
  status: number,
  headers: ResponseHeaders,
  reason: 'empty' | 'truncated' | 'not-json',
  attempts: number,
  ctx: RequestContext,
): UnexpectedResponseError {
  const contentType = header(headers, 'content-type')
  const what =
    reason === 'empty'
      ? 'an empty body'
      : reason === 'truncated'
        ? `a body cut off before its end${attempts > 1 ? ` on all ${attempts} attempts` : ''}`
        : `a body that is not JSON${contentType ? ` (${contentType})` : ''}`
  return new UnexpectedResponseError(ctx.clean(`${subjectOf(ctx)}: the service answered HTTP ${status} with ${what}`), {
    status,
    ...(ctx.resource === undefined ? {} : { resource: ctx.clean(ctx.resource) }),
  })
}
