import { sortDiagnostics, type Diagnostic } from '../../core/diagnostics.js'
import type { DesiredResource, JsonObject, KindName } from '../../core/types.js'
import { readAll, readAllIfListed, type ListPrefetch, type ReadBudget, type Requester } from '../../live/read.js'
import { readTeams, readTeamsIfListed } from '../../live/teams.js'
import { liveKey } from '../../plan/build-plan.js'
import { checkDeclared } from '../../plan/declared-checks.js'
import { danglingIdProblems, listsNeeded, resolveIdentities, unmanaged, type LiveLists, type Resolution, type Sends } from '../../resources/identity.js'
import type { Unmanaged } from '../../plan/model.js'
import { KINDS } from '../../resources/index.js'
import { nameHoldsSecret } from '../../secrets/redact.js'
import { collectLiveSecrets } from '../../secrets/known.js'
import { SENSITIVE } from '../../core/types.js'
import { isObject } from '../../core/json.js'
import type { SecretContext } from '../../secrets/state.js'
import type { ReferenceNames } from '../../resources/references.js'

export interface Identified {
  /** The declared resources with ids found by natural key and references by name as ids; targets to create keep id "". */
  resources: DesiredResource[]
  creations: DesiredResource[]
  /** Names by id for plans; those of a list read only for danglingIds are added when it awaits it. */
  names: Resolution['names']
  /** The references by name each resolved resource had turned into ids (an apply resolves them again after its confirmation). */
  references: Resolution['references']
  /** The lists read whole, for `drift --unmanaged`. */
  lists: LiveLists
  /** Live bodies already read through a list, by kind and id: the plan compares them without reading them again. */
  known: Map<string, JsonObject>
  /** Unknown or ambiguous keys and names, one resource declared twice, a team listed twice: nothing may be sent. */
  problems: Diagnostic[]
  /**
   * References by id to an agent or team the service does not have (danglingIdProblems): nothing
   * may be sent either. A list read only for this check is read beside the plan's own reads, not
   * waited for before them: the caller awaits this before anything is shown or sent. `selected`:
   * the resources (of `resources`) the run plans, when --id leaves others out; only theirs are checked.
   */
  danglingIds: (selected?: readonly DesiredResource[], sends?: Sends) => Promise<Diagnostic[]>
  /** Names the agents the plan read by id (`{id, name}`) where no agent list was read (after danglingIds): a target's scanning_agent is shown by name. */
  nameAgentsRead: (agents: readonly JsonObject[]) => void
  /**
   * The live names by id of the agents and teams the run read (its lists, those read to check ids,
   * and `agentsRead`: the agents the plan read), for a reference the service answers without id.
   * With `agents`, the agent list is read if the run has not read it: a name two agents share
   * settles nothing (references.ts), which only the whole list tells.
   */
  referenceNames: (agentsRead: readonly JsonObject[], agents?: boolean) => Promise<ReferenceNames>
}

/**
 * Reads only the lists the declaration needs (targets when one lacks an id, agents when one lacks
 * an id or a target names its agent or refers by id to one not declared by id, teams when an
 * agent names a team or lists one by id; targets and agents whole for `--unmanaged`), then
 * resolves identities and names against them, and checks the ids referred to.
 */
export async function identify(
  declared: DesiredResource[],
  client: Requester,
  options: { unmanaged?: boolean; prefetch?: ListPrefetch; budget?: ReadBudget; configuration?: readonly DesiredResource[]; holds?: (text: string) => boolean; known?: SecretContext['known'] } = {},
): Promise<Identified> {
  const needed = listsNeeded(declared)
  const lists: LiveLists = {}
  // A live agent's name the secrets state records as applied from a variable (one the YAML no
  // longer sets so) counts here as a secret of the run: shown nowhere, offered in no "did you
  // mean", as `undeclared` lists it. Learnt from each agent list (and agent) as it is read.
  const recorded = new Set<string>()
  const learnRecorded = <T extends readonly unknown[]>(agents: T): T => {
    for (const agent of agents) if (isObject(agent) && typeof agent.id === 'string' && typeof agent.name === 'string' && options.known?.('agent', agent.id, agent.name) === true) recorded.add(agent.name)
    return agents
  }
  const holds = options.known ? (text: string) => options.holds?.(text) === true || recorded.has(text) : options.holds
  // Pages read ahead while the configuration loaded are taken, not asked for again; the run's
  // budget counts these lists with the rest of its reads.
  const reading = { prefetch: options.prefetch, budget: options.budget }
  const agentsForNames = needed.agents || options.unmanaged === true
  // Lists read only to check the ids referred to (a service that does not list them leaves that to the apply).
  const forIds: LiveLists = {}
  const idLists = Promise.all([
    !agentsForNames && needed.agentIds && readAllIfListed(KINDS.agent, client, reading).then((items) => items && (forIds.agents = learnRecorded(items))),
    !needed.teams &&
      (needed.teamIds || needed.teamNames) &&
      readTeamsIfListed(client, options.budget)
        // Read only to name the teams an agent leaves: one the service will not list is shown by id.
        .catch((error: unknown) => {
          if (needed.teamIds) throw error
          return undefined
        })
        .then((items) => items && (forIds.teams = items)),
  ])
  // Awaited later (danglingIds); a failure is thrown there, not left unhandled if the run stops first.
  idLists.catch(() => undefined)
  await Promise.all([
    (needed.targets || options.unmanaged) && readAll(KINDS.target, client, reading).then((items) => (lists.targets = items)),
    agentsForNames && readAll(KINDS.agent, client, reading).then((items) => (lists.agents = learnRecorded(items))),
    needed.teams && readTeams(client, undefined, options.budget).then((items) => (lists.teams = items)),
  ])
  const resolution = resolveIdentities(declared, lists, options.configuration, holds)
  const danglingIds = async (selected?: readonly DesiredResource[], sends?: Sends) => {
    await idLists
    // A list read for this check names its agents and teams in the plan too (`teams: [Platform] ->
    // [Platform, Security]`), with the same hiding rules: ids only where no name is known.
    if (forIds.agents || forIds.teams) {
      const listed = resolveIdentities([], forIds, options.configuration ?? declared, holds).names
      if (forIds.agents) resolution.names.agent = listed.agent
      if (forIds.teams) resolution.names.team = listed.team
    }
    // The resolved resources stand where the declared ones do (index by index).
    const resolved = new Map(declared.map((resource, i) => [resource, resolution.resources[i]!]))
    const chosen = selected && new Set(selected)
    const checked = chosen ? declared.filter((resource) => chosen.has(resolved.get(resource)!)) : declared
    const checkedLists = { agents: lists.agents ?? forIds.agents, teams: lists.teams ?? forIds.teams }
    return sortDiagnostics(danglingIdProblems(checked, checkedLists, options.configuration, holds, sends && ((resource, field, id) => sends(resolved.get(resource) ?? resource, field, id))))
  }
  // A team named twice is only seen once names are ids: the resources resolution copied are
  // checked again (the others were checked with the configuration).
  const renamed = resolution.resources.filter((resource, i) => resource !== declared[i])
  const problems = sortDiagnostics(resolution.errors.length > 0 ? resolution.errors : checkDeclared(renamed, resolution.references))
  const known = new Map<string, JsonObject>()
  for (const [kind, items] of [['target', lists.targets], ['agent', lists.agents]] as const) {
    for (const item of (items ?? []) as JsonObject[]) known.set(liveKey(kind, item.id as string), item)
  }
  const nameAgentsRead = (agents: readonly JsonObject[]) => {
    if (lists.agents || forIds.agents || agents.length === 0) return
    resolution.names.agent = resolveIdentities([], { agents: learnRecorded(agents) }, options.configuration ?? declared, holds).names.agent
  }
  const referenceNames = async (agentsRead: readonly JsonObject[], agents = false): Promise<ReferenceNames> => {
    // A list that could not be read names nothing here (danglingIds says why, after).
    await idLists.catch(() => undefined)
    if (agents && !lists.agents && !forIds.agents) {
      const items = await readAllIfListed(KINDS.agent, client, reading)
      if (items) forIds.agents = learnRecorded(items)
    }
    const byId = (...lists: Array<readonly unknown[] | undefined>) => {
      const names = new Map<string, string>()
      for (const list of lists) for (const item of list ?? []) if (isObject(item) && typeof item.id === 'string' && typeof item.name === 'string' && !names.has(item.id)) names.set(item.id, item.name)
      return names
    }
    return { agent: byId(agentsRead, lists.agents, forIds.agents), team: byId(lists.teams, forIds.teams) }
  }
  return { resources: resolution.resources, creations: resolution.creations, names: resolution.names, references: resolution.references, lists, known, problems, danglingIds, nameAgentsRead, referenceNames }
}

/**
 * The live targets and agents no declared resource is (by id or natural key), for `drift
 * --unmanaged`; with `--kind`, only of those kinds (the others were not loaded); with `--id`, only
 * those ids.
 */
export function undeclared(identified: Identified, kinds?: readonly KindName[], holds?: (text: string) => boolean, secrets?: Pick<SecretContext, 'known'>, ids?: readonly string[]): Unmanaged[] {
  const found = unmanaged(identified.resources, identified.lists, identified.names).map((item) => {
    // A name that holds a secret of the run (a weak one, which the output step leaves in a text),
    // the resource's own URL password or another secret it holds in clear, is not shown; nor one
    // the secrets state records as applied from a variable (a name the YAML no longer declares).
    if (item.name === null) return item
    const live = identified.known.get(liveKey(item.kind, item.id))
    const hidden =
      holds?.(item.name) === true ||
      secrets?.known?.(item.kind, item.id, item.name) === true ||
      (live !== undefined && nameHoldsSecret(KINDS[item.kind], KINDS[item.kind].project(live), item.name))
    return hidden ? { ...item, name: SENSITIVE } : item
  })
  return found.filter((item) => (kinds === undefined || kinds.length === 0 || kinds.includes(item.kind)) && (ids === undefined || ids.length === 0 || ids.includes(item.id)))
}

/**
 * The secrets every target and agent read whole for `drift --unmanaged` holds in clear. The plan
 * teaches the output step those of the resources it compares (prepare-plan.ts); a resource no file
 * declares is never compared, so its password, quoted by another one's name (an agent named after
 * an undeclared target's password), printed in the unmanaged list.
 */
export function listedSecrets(identified: Identified): string[] {
  const found: string[] = []
  for (const [kind, items] of [['target', identified.lists.targets], ['agent', identified.lists.agents]] as const) {
    for (const item of items ?? []) if (isObject(item)) collectLiveSecrets(found, KINDS[kind], KINDS[kind].project(item))
  }
  return found
}
