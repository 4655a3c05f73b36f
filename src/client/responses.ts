/**
 * Turning an answer of the service into a value or into one of our errors. Every text taken
 * from the service goes through `clean` (the run's redaction) on its whole, as the service
 * wrote it, and only then is it parsed, folded or shortened: a secret with a line break, or a
 * token that shortening would cut in two, is still whole when it is looked for. When the run
 * knows a secret too short or too common to substitute, the service's words are withheld and
 * only the status and the field names are shown.
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
import { SENSITIVE } from '../core/types.js'
import { maskUrlPasswords } from '../core/url.js'

export interface RequestContext {
  method: string
  /** The request path relative to the base URL (no query). */
  path: string
  resource?: string
  clean: Redactor
  /** True when the service's own words may not be shown (a weak secret is known). */
  withhold: () => boolean
  /** True when a text holds a weak secret: such a field name is left out too. */
  mentionsWeak: (text: string) => boolean
}

export type ResponseHeaders = Record<string, string | string[] | undefined>

const MAX_DETAIL = 300
/** Deeper error bodies are not walked: no service has a reason to send one. */
export const MAX_BODY_DEPTH = 64

const WITHHELD = "the service's words are withheld: a secret in this run is too short (under 6 characters) or too common to hide inside them"
const TOO_DEEP = `the service's answer is nested more than ${MAX_BODY_DEPTH} levels deep; its details are not shown`

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

/**
 * Folded to one line and cut at MAX_DETAIL, each URL's password hidden first: a cut through one
 * would leave its start, with no `@` to know it by. The words as the service wrote them (parsed, not
 * printed): a backslash and an n is no escaped line break, and may be in a password.
 */
function shorten(text: string): string {
  const flat = maskUrlPasswords(fold(text), SENSITIVE, { escaped: false })
  return flat.length > MAX_DETAIL ? `${flat.slice(0, MAX_DETAIL)}…` : flat
}

/**
 * The service's words on one line: a line break in them would start a line of the report of its
 * own (which a CI runner reads for workflow commands, `::add-mask::…`).
 */
const fold = (text: string): string => text.replace(/\s+/g, ' ').trim()

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

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** How deep a parsed JSON value is nested (0 for a scalar); counted without recursion. */
export function jsonDepth(value: unknown, limit = Infinity): number {
  let deepest = 0
  const stack: Array<[unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    if (typeof node !== 'object' || node === null) continue
    if (depth + 1 > deepest) deepest = depth + 1
    if (deepest > limit) return deepest
    for (const item of Array.isArray(node) ? node : Object.values(node)) if (typeof item === 'object' && item !== null) stack.push([item, depth + 1])
  }
  return deepest
}

/**
 * Deep copy of a JSON value with every string (keys included) passed through `clean`; built
 * without recursion, so any depth is copied.
 */
export function cleanJson(value: unknown, clean: Redactor): unknown {
  const copy = (node: unknown): unknown => (typeof node === 'string' ? clean(node) : Array.isArray(node) ? [] : isPlainObject(node) ? {} : node)
  const root = copy(value)
  const stack: Array<[unknown, unknown]> = [[value, root]]
  while (stack.length > 0) {
    const [from, to] = stack.pop()!
    if (Array.isArray(from)) {
      for (const item of from) {
        const made = copy(item)
        ;(to as unknown[]).push(made)
        if (made !== item) stack.push([item, made])
      }
    } else if (isPlainObject(from)) {
      for (const [key, item] of Object.entries(from)) {
        const made = copy(item)
        Object.defineProperty(to, clean(key), { value: made, enumerable: true, writable: true, configurable: true })
        if (typeof item === 'object' && item !== null) stack.push([item, made])
      }
    }
  }
  return root
}

/**
 * Flattens a DRF error body: `{"site": {"name": ["x"]}}` → `[{path: "site.name", messages: ["x"]}]`.
 * `non_field_errors` belong to the object that holds them; list items get their index
 * (`labels.1.name`); `{code, message}` objects count as their message.
 */
export function flattenFieldErrors(body: unknown): FieldProblem[] {
  const byPath = new Map<string, string[]>()
  const add = (path: string, words: string): void => {
    const message = fold(words)
    const list = byPath.get(path)
    if (list) list.push(message)
    else byPath.set(path, [message])
  }
  const join = (path: string, key: string): string => (path === '' ? fold(key) : `${path}.${fold(key)}`)

  // Depth-first with a stack of its own (no recursion), in document order; deeper than
  // MAX_BODY_DEPTH is not walked.
  const stack: Array<[unknown, string, number]> = [[body, '', 0]]
  while (stack.length > 0) {
    const [value, path, depth] = stack.pop()!
    if (depth > MAX_BODY_DEPTH || value === null || value === undefined) continue
    if (typeof value === 'string') add(path, value)
    else if (typeof value === 'number' || typeof value === 'boolean') add(path, String(value))
    else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) {
        const item: unknown = value[index]
        const nested = typeof item === 'object' && item !== null && !isMessageObject(item)
        stack.push([item, nested ? join(path, String(index)) : path, depth + 1])
      }
    } else if (isMessageObject(value)) add(path, value.message)
    else if (isPlainObject(value)) {
      const entries = Object.entries(value)
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]
        stack.push([item, key === 'non_field_errors' ? path : join(path, key), depth + 1])
      }
    }
  }
  return [...byPath].map(([path, messages]) => ({ path, messages }))
}

function isMessageObject(value: unknown): value is { message: string } {
  return (
    isObject(value) &&
    typeof value.message === 'string' &&
    Object.keys(value).every((key) => key === 'message' || key === 'code' || key === 'detail')
  )
}

/** An error body as the service wrote it, redacted whole, then parsed (or not JSON). */
interface ErrorBody {
  /** The redacted text. */
  text: string
  parsed: JsonParse
  /** Nested deeper than MAX_BODY_DEPTH: only its status is used. */
  tooDeep: boolean
}

function readErrorBody(raw: string, ctx: RequestContext): ErrorBody {
  const text = ctx.clean(raw)
  const parsed = parseJson(text)
  if (!parsed.ok) return { text, parsed, tooDeep: false }
  if (jsonDepth(parsed.value, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) return { text, parsed: { ok: false, reason: 'not-json' }, tooDeep: true }
  // Once more on each string: an escape the written forms do not cover (`\u0073ecret`) is undone by parsing.
  return { text, parsed: { ok: true, value: cleanJson(parsed.value, ctx.clean) }, tooDeep: false }
}

/** The field errors of a body whose words are withheld: their places only, each saying so. */
function withheldProblems(value: unknown, ctx: RequestContext): FieldProblem[] {
  const paths = new Set(flattenFieldErrors(value).map((p) => p.path))
  return [...paths]
    .filter((path) => path !== '' && path !== 'detail' && /^[\w.-]+$/.test(path) && !ctx.mentionsWeak(path))
    .map((path) => ({ path, messages: [`(${WITHHELD})`] }))
}

/** The field names of a parsed error body (no messages), as words to show in place of the withheld text. */
function fieldNames(value: unknown, ctx: RequestContext): string | undefined {
  const paths = withheldProblems(value, ctx).map((p) => p.path)
  return paths.length === 0 ? undefined : `fields ${paths.join(', ')}`
}

/**
 * The service's own words from an error body, if it has any we can show (never HTML):
 * already redacted whole (readErrorBody), then folded and shortened.
 */
function serviceDetail(body: ErrorBody, headers: ResponseHeaders, ctx: RequestContext): string | undefined {
  if (body.tooDeep) return TOO_DEEP
  const { parsed } = body
  if (ctx.withhold()) {
    const names = parsed.ok ? fieldNames(parsed.value, ctx) : undefined
    return parsed.ok || (parsed.reason !== 'empty' && !looksLikeHtml(body.text, headers)) ? [names, `(${WITHHELD})`].filter(Boolean).join(' ') : undefined
  }
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
  if (parsed.reason === 'empty' || looksLikeHtml(body.text, headers)) return undefined
  return shorten(body.text)
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
  const detail = (): string | undefined => serviceDetail(readErrorBody(text, ctx), headers, ctx)
  const finish = (message: string): string => ctx.clean(message)

  if (status >= 300 && status < 400) {
    return new UnexpectedResponseError(
      finish(`${subject}: the service answered with a redirect (HTTP ${status}) to ${locationOrigin(headers, response.url)}; redirects are not followed`),
      base,
    )
  }
  // The service's detail is left out: it rarely helps and might quote the credentials.
  if (status === 401) return new AuthenticationError(finish(`${subject}: authentication failed (HTTP 401): check SCANSYNC_API_TOKEN`), base)
  if (status === 403) {
    // The token was taken (a 403 often follows reads that passed): what it may do is what to check.
    const verb = ctx.method === 'GET' ? 'read' : 'change'
    return new AuthenticationError(finish(`${subject}: the token is not allowed to ${verb} it (HTTP 403): check what SCANSYNC_API_TOKEN may do`), base)
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
  const read = readErrorBody(response.text, ctx)
  const { parsed } = read
  let fieldErrors: Record<string, unknown> = {}
  let detail: string | undefined
  let problems: FieldProblem[] = []
  let words: string | undefined
  if (read.tooDeep || ctx.withhold()) {
    // Field names only (for the YAML places), never the service's messages.
    if (parsed.ok) problems = withheldProblems(parsed.value, ctx)
    words = serviceDetail(read, response.headers, ctx)
  } else if (parsed.ok) {
    const body = parsed.value
    if (isPlainObject(body)) {
      const { detail: bodyDetail, ...rest } = body
      if (typeof bodyDetail === 'string') {
        detail = fold(bodyDetail)
        // A `code` beside the detail is its error code (as in a `{code, message}` object), not a field: no resource has one.
        if (typeof rest.code === 'string') delete rest.code
      } else if (bodyDetail !== undefined) rest.detail = bodyDetail
      fieldErrors = rest
    } else if (typeof body === 'string') {
      detail = fold(body)
    } else {
      fieldErrors = { non_field_errors: body }
    }
    problems = flattenFieldErrors(fieldErrors)
    const parts = [...(detail === undefined ? [] : [detail]), ...(problems.length > 0 ? [formatProblems(problems)] : [])]
    if (parts.length > 0) words = parts.join('; ')
  } else if (parsed.reason !== 'empty' && !looksLikeHtml(read.text, response.headers)) {
    detail = shorten(read.text)
    words = detail
  }
  const message = ctx.clean(`${subjectOf(ctx)}: the service rejected the request (HTTP ${response.status})${words === undefined ? '' : `: ${words}`}`)
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
