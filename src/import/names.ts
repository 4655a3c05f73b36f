import { isObject } from '../core/json.js'
import type { JsonObject, KindName } from '../core/types.js'
import type { NameIndex } from '../resources/identity.js'
import type { LeftOut } from './select.js'

/*
 * Import writes references by name where a name identifies one team or agent alone
 * (`teams: [{name: Platform}]`, `scanning_agent: {name: dc-lisbon-agent}`): a reviewer can check a
 * name, not an id. An id stays where the name is shared or unknown. A target keeps its own `id`:
 * it pins the target even when its URL changes.
 */

/** Which lists the imported resources refer into: teams from agents, agents from targets. */
export function namesNeeded(sections: ReadonlyArray<{ kind: KindName; resources: ReadonlyArray<{ fields: JsonObject }> }>): { teams: boolean; agents: boolean } {
  const needed = { teams: false, agents: false }
  for (const { kind, resources } of sections) {
    for (const { fields } of resources) {
      if (kind === 'agent' && Array.isArray(fields.teams) && fields.teams.length > 0) needed.teams = true
      if (kind === 'target' && isObject(fields.scanning_agent)) needed.agents = true
    }
  }
  return needed
}

/** The fields with references by name where the name is unique (the same object when nothing changes). */
export function withNames(kind: KindName, fields: JsonObject, names: { team?: NameIndex; agent?: NameIndex }, holdsSecret: (text: string) => boolean = () => false): JsonObject {
  const byName = (reference: unknown, index: NameIndex | undefined): unknown => {
    // A team may come as its bare id (the shorthand the YAML writes) or as `{id}`.
    const id = typeof reference === 'string' ? reference : isObject(reference) && typeof reference.id === 'string' ? reference.id : undefined
    if (!index || id === undefined) return reference
    const name = index.uniqueName(id)
    // A name quoting a secret of the run (a team named after a URL's password) would be written
    // in clear, or as the output step's placeholder, which no team is named: the id stays.
    return name === undefined || holdsSecret(name) ? reference : { name }
  }
  if (kind === 'agent' && Array.isArray(fields.teams) && names.team) return { ...fields, teams: fields.teams.map((team) => byName(team, names.team)) }
  if (kind === 'target' && isObject(fields.scanning_agent) && names.agent) return { ...fields, scanning_agent: byName(fields.scanning_agent, names.agent) }
  return fields
}

/**
 * A reference the service answered by its name alone (`{name}`, no id to write instead) where that
 * name is shared by two teams or agents, or carried by none (the agent or team deleted since): a
 * configuration naming it is refused (as ambiguous, or as naming nothing), so the field is left
 * out, and said why (the fields unchanged, the same object, otherwise).
 */
export function withoutSharedNames(kind: KindName, fields: JsonObject, names: { team?: NameIndex; agent?: NameIndex; teamsUnlisted?: boolean }): { fields: JsonObject; leftOut: LeftOut[] } {
  // A team by its name alone where the service does not list teams: no configuration can name it (plan needs the list to find its id).
  if (kind === 'agent' && names.teamsUnlisted && Array.isArray(fields.teams) && fields.teams.some((team) => isObject(team) && team.id === undefined && typeof team.name === 'string')) {
    const rest = { ...fields }
    delete rest.teams
    return { fields: rest, leftOut: [{ field: 'teams', reason: 'the service answers a team by its name alone, and does not list teams (GET /teams/): a configuration could not name it' }] }
  }
  const carriers = (reference: unknown, index: NameIndex | undefined): number | undefined =>
    index !== undefined && isObject(reference) && reference.id === undefined && typeof reference.name === 'string' ? index.idsNamed(reference.name).length : undefined
  const unsettled = (reference: unknown, index: NameIndex | undefined): boolean => {
    const count = carriers(reference, index)
    return count !== undefined && count !== 1
  }
  const field = kind === 'agent' && Array.isArray(fields.teams) && fields.teams.some((team) => unsettled(team, names.team)) ? 'teams' : kind === 'target' && unsettled(fields.scanning_agent, names.agent) ? 'scanning_agent' : undefined
  if (field === undefined) return { fields, leftOut: [] }
  const rest = { ...fields }
  delete rest[field]
  const unknown = field === 'teams' ? (fields.teams as unknown[]).some((team) => carriers(team, names.team) === 0) : carriers(fields.scanning_agent, names.agent) === 0
  const what = unknown
    ? field === 'teams'
      ? 'a team by a name that no team carries (deleted or renamed since), and no id: a configuration could not name it'
      : 'its scanning agent by a name that no agent carries (deleted or renamed since), and no id: a configuration could not name it'
    : field === 'teams'
      ? 'a team by a name that two teams share, and no id: a configuration could not tell which'
      : 'its scanning agent by a name that two agents share, and no id: a configuration could not tell which'
  return { fields: rest, leftOut: [{ field, reason: `the service answers ${what}` }] }
}
