import type { State } from './state.js'
import { render } from './shape.js'
import { obfuscate } from './sensitive.js'
import type { EmulatorKind } from './types.js'
import { validateTargetCreate, validateWrite, type References } from './validate.js'
import { API_USER, type Clock } from './values.js'

/** What a request handler reads of the emulator. */
export interface ApiContext {
  readonly state: State
  readonly token: string
  readonly obfuscate: boolean
  readonly clock: Clock
}

export type ParsedBody = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'invalid'; message: string }

export interface ApiRequest {
  method: string
  /** Without the query string. */
  path: string
  query: Record<string, string>
  authorization: string | undefined
  contentType: string | undefined
  body: ParsedBody
}

export interface ApiResponse {
  status: number
  contentType: string
  body: string
  headers?: Record<string, string>
}

export interface Route {
  kind: EmulatorKind
  /** Absent for the list route. */
  id?: string
}

const COLLECTIONS: readonly [string, EmulatorKind][] = [
  ['/targets/', 'target'],
  ['/discovery/assets/', 'asset'],
  ['/scanning-agents/', 'agent'],
]

/** The write each kind takes. */
export const WRITE_METHOD: Record<EmulatorKind, 'PATCH' | 'PUT'> = { target: 'PATCH', asset: 'PUT', agent: 'PATCH' }

/** What each list takes: only targets are created through the interface (agents are installed). */
const LIST_METHODS: Record<EmulatorKind, string[]> = { target: ['GET', 'POST'], asset: ['GET'], agent: ['GET'] }

/** Teams are read only: `GET /teams/` and `GET /teams/:id/` (not in the interface document). */
const TEAMS = '/teams/'

export const MAX_PAGE_LENGTH = 100

/** `/targets/` or `/targets/:id/` (paths end with a slash, as the service's do). */
export function matchRoute(path: string): Route | undefined {
  for (const [prefix, kind] of COLLECTIONS) {
    if (path.startsWith(prefix)) return matchUnder(prefix, path, (id) => ({ kind, id }))
  }
  return undefined
}

/** `/teams/` (`{}`) or `/teams/:id/` (`{id}`). */
export function matchTeamRoute(path: string): { id?: string } | undefined {
  return path.startsWith(TEAMS) ? matchUnder(TEAMS, path, (id) => ({ id })) : undefined
}

/** Whether a path is a list (of any collection, teams included): faults answer lists in their shape. */
export function isListPath(path: string): boolean {
  const route = matchRoute(path) ?? matchTeamRoute(path)
  return route !== undefined && route.id === undefined
}

function matchUnder<R>(prefix: string, path: string, make: (id: string | undefined) => R): R | undefined {
  const rest = path.slice(prefix.length)
  if (rest === '') return make(undefined)
  const slash = rest.indexOf('/')
  if (slash <= 0 || slash !== rest.length - 1) return undefined
  try {
    return make(decodeURIComponent(rest.slice(0, -1)))
  } catch {
    return undefined
  }
}

/** Deeper bodies are refused: the handling (validation, redaction for the log) walks them recursively. */
export const MAX_BODY_DEPTH = 64

/** How deeply a parsed JSON value nests, counted without recursion (stopping past `limit`). */
function depthOf(value: unknown, limit: number): number {
  let deepest = 0
  const stack: Array<[unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    if (node === null || typeof node !== 'object') continue
    deepest = Math.max(deepest, depth + 1)
    if (deepest > limit) return deepest
    for (const child of Object.values(node)) stack.push([child, depth + 1])
  }
  return deepest
}

export function parseBody(text: string): ParsedBody {
  if (text.trim() === '') return { kind: 'none' }
  try {
    const value: unknown = JSON.parse(text)
    if (depthOf(value, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) return { kind: 'invalid', message: `JSON parse error - nested more than ${MAX_BODY_DEPTH} levels deep` }
    return { kind: 'json', value }
  } catch (error) {
    // V8 quotes the start of the text in its message; a body may hold secrets, so that part goes.
    const reason = (error as Error).message.replace(/,? ".*" is not valid JSON$/s, '')
    return { kind: 'invalid', message: `JSON parse error - ${reason}` }
  }
}

const json = (status: number, body: unknown, headers?: Record<string, string>): ApiResponse => ({
  status,
  contentType: 'application/json',
  body: JSON.stringify(body),
  headers,
})

const NOT_FOUND = (): ApiResponse => json(404, { detail: 'Not found.' })

export function handleApi(ctx: ApiContext, request: ApiRequest): ApiResponse {
  const team = matchTeamRoute(request.path)
  const route = team ? undefined : matchRoute(request.path)
  if (!route && !team) return NOT_FOUND()
  const authProblem = checkAuthorization(request.authorization, ctx.token)
  if (authProblem) return json(401, { detail: authProblem }, { 'www-authenticate': 'JWT realm="api"' })
  if (!route) return teams(ctx, team!.id, request)
  const allowed = route.id === undefined ? LIST_METHODS[route.kind] : ['GET', WRITE_METHOD[route.kind]]
  if (!allowed.includes(request.method)) return notAllowed(request.method, allowed)
  if (route.id === undefined) {
    if (request.method === 'POST') return create(ctx, request)
    return listPage(ctx.state.ids(route.kind), request.query, (id) => viewText(ctx, route.kind, id))
  }
  if (!ctx.state.record(route.kind, route.id)) return NOT_FOUND()
  if (request.method === 'GET') return jsonText(200, viewText(ctx, route.kind, route.id))
  return write(ctx, route.kind, route.id, request)
}

const notAllowed = (method: string, allowed: string[]): ApiResponse =>
  json(405, { detail: `Method "${method}" not allowed.` }, { allow: allowed.join(', ') })

/** `GET /teams/` (list pages, as the other lists) and `GET /teams/:id/`: `{id, name}`. */
function teams(ctx: ApiContext, id: string | undefined, request: ApiRequest): ApiResponse {
  if (request.method !== 'GET') return notAllowed(request.method, ['GET'])
  const registry = ctx.state.teams
  if (id === undefined) return listPage(registry.ids(), request.query, (teamId) => JSON.stringify(registry.output(teamId)))
  return registry.has(id) ? json(200, registry.output(id)) : NOT_FOUND()
}

function checkAuthorization(header: string | undefined, token: string): string | undefined {
  if (header === `JWT ${token}`) return undefined
  const parts = (header ?? '').trim().split(/\s+/)
  if (parts[0].toLowerCase() !== 'jwt') return 'Authentication credentials were not provided.'
  if (parts.length === 1) return 'Invalid Authorization header. No credentials provided.'
  if (parts.length > 2) return 'Invalid Authorization header. Credentials string should not contain spaces.'
  return parts[1] === token ? undefined : 'Invalid token.'
}

/** A resource as GET answers it, as JSON text (made once until the next write: State.answerText). */
function viewText(ctx: ApiContext, kind: EmulatorKind, id: string): string {
  return ctx.state.answerText(kind, id, () => {
    const resource = render(ctx.state, kind, id)
    return ctx.obfuscate ? obfuscate(resource) : resource
  })
}

const jsonText = (status: number, text: string): ApiResponse => ({ status, contentType: 'application/json', body: text })

/** DRF page-number pagination: `page` from 1 (or `last`), `length` up to 100; an empty list has one page. */
function listPage(ids: readonly string[], query: Record<string, string>, itemText: (id: string) => string): ApiResponse {
  const asked = query.length === undefined ? NaN : Number(query.length)
  const length = Number.isInteger(asked) && asked > 0 ? Math.min(asked, MAX_PAGE_LENGTH) : MAX_PAGE_LENGTH
  const pageTotal = Math.max(1, Math.ceil(ids.length / length))
  const page = query.page === undefined ? 1 : query.page === 'last' ? pageTotal : Number(query.page)
  if (!Number.isInteger(page) || page < 1 || page > pageTotal) return json(404, { detail: 'Invalid page.' })
  const results = ids.slice((page - 1) * length, page * length).map(itemText)
  // What JSON.stringify writes for { count, page_total, page, length, results }, with each result's text as it is.
  return jsonText(200, `{"count":${ids.length},"page_total":${pageTotal},"page":${page},"length":${length},"results":[${results.join(',')}]}`)
}

/** A write's body as JSON (nothing is `{}`), or the answer refusing it. */
function bodyOf(request: ApiRequest): { value: unknown } | ApiResponse {
  const { body } = request
  if (body.kind !== 'none' && !/^application\/([\w.+-]+\+)?json\b/i.test(request.contentType ?? '')) {
    return json(415, { detail: `Unsupported media type "${request.contentType ?? ''}" in request.` })
  }
  if (body.kind === 'invalid') return json(400, { detail: body.message })
  return { value: body.kind === 'json' ? body.value : {} }
}

const referencesOf = (state: State): References => ({
  hasAgent: (agentId) => state.agents.has(agentId),
  hasTeam: (teamId) => state.teams.has(teamId),
})

/** `POST /targets/`: validated as PATCH with `site.name` and `site.url` required; 201 with the new target. */
function create(ctx: ApiContext, request: ApiRequest): ApiResponse {
  const body = bodyOf(request)
  if ('status' in body) return body
  const checked = validateTargetCreate(body.value, referencesOf(ctx.state))
  if (!checked.ok) return json(400, checked.errors)
  const id = ctx.state.createTarget({ ...checked.value }, { user: API_USER, now: ctx.clock.now() })
  return jsonText(201, viewText(ctx, 'target', id))
}

function write(ctx: ApiContext, kind: EmulatorKind, id: string, request: ApiRequest): ApiResponse {
  const body = bodyOf(request)
  if ('status' in body) return body
  const state = ctx.state
  const checked = validateWrite(kind, body.value, referencesOf(state))
  if (!checked.ok) return json(400, checked.errors)
  const changes = { ...checked.value } as Record<string, unknown>
  if (kind === 'asset') {
    // PUT replaces: a writable field left out is reset to its default.
    changes.state ??= 'NEW'
    changes.owners ??= []
    changes.comment ??= null
    changes.labels ??= []
  }
  state.write(kind, id, changes, { user: API_USER, now: ctx.clock.now() })
  return jsonText(200, viewText(ctx, kind, id))
}
