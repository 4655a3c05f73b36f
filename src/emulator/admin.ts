/**
 * The emulator's admin endpoint: a change made "by hand", as a person in the service's web
 * interface would make it, so that drift can be rehearsed (`scansync drift` then reports it).
 *
 *   PATCH /_emulator/targets/{id}/             {"site": {"name": "Edited by hand"}}
 *   PATCH /_emulator/discovery/assets/{id}/    {"comment": "checked"}
 *   PATCH /_emulator/scanning-agents/{id}/     {"name": "renamed"}
 *
 * The body is deep-merged into the stored resource (lists replaced whole), in the forms the seed
 * file takes, recorded as made by the web user. The same token as the API is required.
 */
import { type ApiContext, type ApiRequest, type ApiResponse, handleApi, matchRoute } from './routes.js'
import { WEB_USER } from './values.js'

export const ADMIN_PREFIX = '/_emulator'

const answer = (status: number, body: unknown): ApiResponse => ({ status, contentType: 'application/json', body: JSON.stringify(body) })

export function handleAdmin(ctx: ApiContext, request: ApiRequest): ApiResponse {
  const route = matchRoute(request.path.slice(ADMIN_PREFIX.length))
  if (!route || route.id === undefined) return answer(404, { detail: `Not found. The admin endpoint is PATCH ${ADMIN_PREFIX}/targets/{id}/ (or discovery/assets, scanning-agents).` })
  // The API's own answer to a GET checks the token and that the resource exists.
  const check = handleApi(ctx, { ...request, method: 'GET', path: request.path.slice(ADMIN_PREFIX.length), body: { kind: 'none' } })
  if (check.status !== 200) return check
  if (request.method !== 'PATCH') return { ...answer(405, { detail: `Method "${request.method}" not allowed.` }), headers: { allow: 'PATCH' } }
  const { body } = request
  if (body.kind !== 'json' || body.value === null || typeof body.value !== 'object' || Array.isArray(body.value)) {
    return answer(400, { detail: 'The body must be a JSON object: the fields to change, as in the seed file.' })
  }
  try {
    ctx.state.write(route.kind, route.id, body.value as Record<string, never>, { user: WEB_USER, now: ctx.clock.now() }, { checked: true })
  } catch (error) {
    return answer(400, { detail: (error as Error).message })
  }
  return handleApi(ctx, { ...request, method: 'GET', path: request.path.slice(ADMIN_PREFIX.length), body: { kind: 'none' } })
}
