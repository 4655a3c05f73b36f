import type { JsonObject } from '../core/types.js'
import { ReadBudget } from './budget.js'
import type { Listed } from './list.js'
import { readWhole, type Requester } from './read.js'

/** Teams are read only to turn names into ids: `GET /teams/` (not in the interface document), list pages as the other kinds. */
export const TEAMS_PATH = '/teams/'

/** The team list, read as the kinds' lists are (teams are not a kind: only their names are read). */
const TEAM_LIST: Listed = { name: 'team', listPath: TEAMS_PATH, responseValidator: 'teamResponse', instead: 'refer to each team by its id instead' }

/**
 * Every team of the account, through the one list reader (src/live/read.ts): its caps, and a list
 * that moved while it was read (a team added or deleted meanwhile) read again, a team met in any
 * read counting once. Each team is checked against the team schema (id and name; unknown fields are fine).
 * `required` false: undefined when the pages cannot be counted (or the service does not list teams).
 */
export async function readTeams(client: Requester, pageLength = 100, budget = new ReadBudget(), required = true): Promise<JsonObject[] | undefined> {
  return readWhole(TEAM_LIST, client, { pageLength, budget }, required)
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
