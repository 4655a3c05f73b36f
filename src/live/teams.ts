import { ScansyncError } from '../core/errors.js'
import type { JsonObject } from '../core/types.js'
import { validator } from '../schema/validators.js'
import { ReadBudget, refuseBeyondCaps } from './budget.js'
import { pagesUncounted, pageTotalOf, refuseUncountedPages } from './pages.js'
import type { Requester } from './read.js'

/** Teams are read only to turn names into ids: `GET /teams/` (not in the interface document), list pages as the other kinds. */
export const TEAMS_PATH = '/teams/'

/**
 * Every team of the account: page 1, then the other pages in parallel once page_total is known.
 * Each page is checked against the team list page schema (id and name; unknown fields are fine).
 */
export async function readTeams(client: Requester, pageLength = 100, budget = new ReadBudget(), required = true): Promise<JsonObject[] | undefined> {
  budget.watch(client)
  const page = async (n: number) => {
    const body = await client.request<unknown>('GET', TEAMS_PATH, { query: { page: n, length: pageLength }, resource: 'the team list' })
    budget.spend(client, body, `GET ${TEAMS_PATH}`)
    const validate = validator('teamListPage')
    if (!validate(body)) {
      throw new ScansyncError(`the service's answer to GET ${TEAMS_PATH} is not a list page of teams (${validate.errors?.[0]?.instancePath || '/'} ${validate.errors?.[0]?.message})`)
    }
    return body as { page_total?: number; count?: number; length?: number; results: JsonObject[] }
  }
  const first = await page(1)
  // A list read only to check something the run can do without is let go when its pages cannot be counted.
  if (!required && pagesUncounted(first)) return undefined
  refuseUncountedPages(first, 'team', `GET ${TEAMS_PATH}`)
  const pageTotal = pageTotalOf(first)
  // The other pages are all asked for at once: a service claiming billions of pages would have
  // scansync make as many requests (and promises) before any answer; the kinds' lists' caps hold here too.
  refuseBeyondCaps({ name: 'team', listPath: TEAMS_PATH }, { pageTotal, ...(first.count === undefined ? {} : { count: first.count }) }, budget.limits, pageLength)
  const rest = await Promise.all(Array.from({ length: Math.max(0, pageTotal - 1) }, (_, i) => page(i + 2)))
  const byId = new Map<string, JsonObject>()
  for (const body of [first, ...rest]) for (const team of body.results) if (!byId.has(team.id as string)) byId.set(team.id as string, team)
  return [...byId.values()]
}

/**
 * As readTeams, but undefined when the service does not list teams (404 or 405) or its pages cannot be counted: for a list read
 * only to check the team ids agents refer to, a check the run can do without.
 */
export async function readTeamsIfListed(client: Requester, budget?: ReadBudget): Promise<JsonObject[] | undefined> {
  try {
    return await readTeams(client, undefined, budget, false)
  } catch (error) {
    const status = (error as { status?: number } | undefined)?.status
    if (status === 404 || status === 405) return undefined
    throw error
  }
}
