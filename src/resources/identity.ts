import { closest } from '../config/schema-errors.js'
import { declaredLabel } from './label.js'
import type { Diagnostic, PathSegments } from '../core/diagnostics.js'
import { formatPath } from '../core/diagnostics.js'
import { getPath, isObject } from '../core/json.js'
import { SENSITIVE, type DesiredResource, type JsonObject } from '../core/types.js'
import { comparableUrl } from '../core/url.js'

/*
 * Identity against the live account (design.md, Semantics 1): a target declared without `id` is
 * the live target with its URL (none: it is created; several: an error), an agent without `id`
 * the live agent with its name (none or several: an error). References by name
 * (`teams: [{name}]`, `scanning_agent: {name}`) become ids; a reference by an id the list read
 * does not hold is an error at its line. Pure: the caller reads the lists.
 */

/** Live objects as the service lists them; only `id`, `name` and a target's `site.url`/`site.name` are read. */
export interface LiveLists {
  targets?: readonly unknown[]
  agents?: readonly unknown[]
  teams?: readonly unknown[]
}

/** Which lists the declared resources need read: a list is read only when something refers into it. */
export interface ListsNeeded {
  /** A target is declared without id. */
  targets: boolean
  /** An agent is declared without id, or a target names its scanning agent. */
  agents: boolean
  /** An agent names a team. */
  teams: boolean
  /**
   * Read only to check ids (a service that lists none: the check is left to the apply): a target
   * refers by id to an agent the run does not declare by id (one it declares is read with it, and
   * a 404 there says it is gone; one that --kind or --id leaves out is not read), or an agent lists
   * a team by id.
   */
  agentIds: boolean
  teamIds: boolean
  /**
   * Read only to name the teams an agent leaves (it empties its teams: `[]` or `null`): it names no
   * team, so a team list that cannot be read leaves them shown by id, as before it was read.
   */
  teamNames: boolean
}

export function listsNeeded(declared: readonly DesiredResource[]): ListsNeeded {
  const needed: ListsNeeded = { targets: false, agents: false, teams: false, agentIds: false, teamIds: false, teamNames: false }
  let agentsDeclared: Set<string> | undefined
  for (const resource of declared) {
    if (resource.kind === 'target') {
      if (resource.id === '') needed.targets = true
      const agent = resource.fields.scanning_agent
      if (isNameRef(agent)) needed.agents = true
      else if (isIdRef(agent) && !needed.agentIds) {
        agentsDeclared ??= declaredAgentIds(declared)
        if (!agentsDeclared.has(agent.id)) needed.agentIds = true
      }
    } else if (resource.kind === 'agent') {
      if (resource.id === '') needed.agents = true
      const teams = resource.fields.teams
      if (Array.isArray(teams)) {
        if (teams.some(isNameRef)) needed.teams = true
        if (teams.some(isIdRef)) needed.teamIds = true
      }
      // An agent's teams emptied (`[]` or `null`): the list names the teams it leaves in the plan.
      if (teams === null || (Array.isArray(teams) && teams.length === 0)) needed.teamNames = true
    }
  }
  return needed
}

/** `{name: …}` without an id: a reference by name. */
const isNameRef = (value: unknown): value is { name: string } => isObject(value) && typeof value.name === 'string' && value.id === undefined

/** `{id: …}` (or a bare id, which the loader made so): a reference by id. */
const isIdRef = (value: unknown): value is { id: string } => isObject(value) && typeof value.id === 'string'

/** The agents declared by id among those a run reads: it reads each (a 404 says it is gone), so a reference to one is not checked against the list. */
const declaredAgentIds = (declared: readonly DesiredResource[]): Set<string> => new Set(declared.flatMap((r) => (r.kind === 'agent' && r.id !== '' ? [r.id] : [])))

/** Ids by name and names by id of one kind of live object. */
export class NameIndex {
  private readonly idsByName = new Map<string, string[]>()
  private readonly nameById = new Map<string, string>()
  /** Every id listed, named or not. */
  private readonly ids = new Set<string>()

  /** `hidden`: ids whose name comes from a variable (an agent the configuration renames with one): shown as (sensitive), found by it all the same. */
  constructor(items: readonly unknown[] = [], nameOf: (item: JsonObject) => unknown = (item) => item.name, private readonly hidden: Set<string> = new Set()) {
    for (const item of items) {
      if (!isObject(item) || typeof item.id !== 'string') continue
      this.ids.add(item.id)
      const name = nameOf(item)
      if (typeof name !== 'string' || name === '') continue
      this.nameById.set(item.id, name)
      const ids = this.idsByName.get(name)
      if (ids) ids.push(item.id)
      else this.idsByName.set(name, [item.id])
    }
  }

  /** The name of an id, for display; undefined where none is known (show the id). */
  nameOf(id: string): string | undefined {
    return this.hidden.has(id) ? SENSITIVE : this.nameById.get(id)
  }

  /**
   * The name a reference to `id` is shown by (plans: `teams: [Platform]`): (sensitive) as nameOf;
   * undefined (show the id) where another has that name too, which would not say which one.
   */
  referenceName(id: string): string | undefined {
    return this.hidden.has(id) ? SENSITIVE : this.uniqueName(id)
  }

  /** Shows the name of `id` as (sensitive) from now on: the configuration identifies it by a name from a variable. */
  hide(id: string): void {
    this.hidden.add(id)
  }

  /** Shows as (sensitive), and offers nowhere, every name that `holds` says holds a secret of the run. */
  hideWhere(holds: (name: string) => boolean): void {
    for (const [id, name] of this.nameById) if (holds(name)) this.hidden.add(id)
  }

  idsNamed(name: string): readonly string[] {
    return this.idsByName.get(name) ?? []
  }

  /** The name when it names this object alone: what import may write instead of the id. */
  uniqueName(id: string): string | undefined {
    const name = this.hidden.has(id) ? undefined : this.nameById.get(id)
    return name !== undefined && this.idsNamed(name).length === 1 ? name : undefined
  }

  has(id: string): boolean {
    return this.ids.has(id)
  }

  /** Every id listed, for a "did you mean"; with its name where one is known and may be shown. */
  knownIds(): Array<{ id: string; name?: string }> {
    return [...this.ids].map((id) => {
      const name = this.hidden.has(id) ? undefined : this.nameById.get(id)
      return name === undefined ? { id } : { id, name }
    })
  }

  names(): string[] {
    // A name from a variable is never offered (a "did you mean" would say what it is).
    return [...this.idsByName].filter(([, ids]) => !ids.some((id) => this.hidden.has(id))).map(([name]) => name)
  }
}

/** The ids of the live targets whose URL is `url`, compared as plans compare URLs. */
export function targetsWithUrl(targets: readonly unknown[], url: string): string[] {
  return [...urlIndex(targets).idsOf(url)]
}

/** Live targets by URL, compared as plans compare URLs: built once, so that finding many targets costs one pass. */
export function urlIndex(targets: readonly unknown[]): { idsOf(url: string): readonly string[] } {
  const byUrl = new Map<string, string[]>()
  for (const target of targets) {
    if (!isObject(target) || typeof target.id !== 'string') continue
    const live = liveUrl(target)
    if (live === undefined) continue
    const key = comparableUrl(live)
    const ids = byUrl.get(key)
    if (ids) ids.push(target.id)
    else byUrl.set(key, [target.id])
  }
  return { idsOf: (url) => byUrl.get(comparableUrl(url)) ?? [] }
}

const liveUrl = (target: JsonObject): string | undefined => {
  const value = getPath(target, ['site', 'url'])
  return typeof value === 'string' ? value : undefined
}

export interface Resolution {
  /**
   * Every declared resource, in the order given: ids found by natural key filled in, references
   * by name replaced by `{id}`. A target to create keeps id "" (and its naturalKey). Resources
   * that needed nothing are the same objects; the others are copies.
   */
  resources: DesiredResource[]
  /** The targets no live target matches: to create with `POST /targets/`. */
  creations: DesiredResource[]
  /** Unknown or ambiguous keys and names, and one live resource declared twice; located in the YAML. */
  errors: Diagnostic[]
  /** Names by id, for plans and reports (`teams: [Platform]`); ids only where no name is known. */
  names: { target: NameIndex; agent: NameIndex; team: NameIndex }
  /** The references by name each resolved resource (of `resources`) had turned into ids; none for most. */
  references: Map<DesiredResource, NameReference[]>
}

/**
 * A reference by name (`scanning_agent: {name}`, `teams: [{name}]`) turned into an id: an apply
 * that sends the id resolves the name again after its confirmation (src/plan/names-again.ts).
 */
export interface NameReference {
  /** Where the name is written: `scanning_agent.name`, `teams[1].name`. */
  place: string
  kind: 'agent' | 'team'
  name: string
  /** The id the name meant. */
  id: string
  /** The name comes from a variable: shown (sensitive). */
  fromVariable: boolean
  /** The name meant the agent only because the configuration renames it so (its live name was another). */
  byRename?: boolean
}

/**
 * The names of the live lists as references by name are resolved against them (resolveIdentities,
 * and again after a confirmation: src/plan/names-again.ts): an agent the configuration renames (by
 * its id) is found by its new name. `byRename`: whether `name` means agent `id` only through such a
 * renaming (its live name is another).
 */
export function nameIndexes(live: LiveLists, configuration: readonly DesiredResource[], holds?: (text: string) => boolean): { names: Resolution['names']; renamedFrom: (name: string) => { id: string; to: string } | undefined; byRename: (id: string, name: string) => boolean } {
  // Agents by the names they will have after the apply: an agent the configuration renames (by its
  // id) is found by its new name, in the same change that renames it, and no longer by its old
  // one, whatever --kind and --id select.
  const renamed = new Map<string, string>()
  const renamedByVariable = new Set<string>()
  for (const resource of configuration) {
    if (resource.kind !== 'agent' || resource.id === '' || typeof resource.fields.name !== 'string') continue
    renamed.set(resource.id, resource.fields.name)
    if (resource.templates.has('name')) renamedByVariable.add(resource.id)
  }
  const names = {
    target: new NameIndex(live.targets, (target) => getPath(target, ['site', 'name'])),
    agent: new NameIndex(live.agents, (agent) => (typeof agent.id === 'string' ? renamed.get(agent.id) : undefined) ?? agent.name, renamedByVariable),
    team: new NameIndex(live.teams),
  }
  // An unknown agent name that is a live agent's name now, which the configuration renames: said so.
  const renamedFrom = (name: string): { id: string; to: string } | undefined => {
    for (const agent of (live.agents ?? []) as readonly JsonObject[]) {
      const to = typeof agent.id === 'string' ? renamed.get(agent.id) : undefined
      if (agent.name === name && to !== undefined && to !== name) return { id: agent.id as string, to: renamedByVariable.has(agent.id as string) ? SENSITIVE : JSON.stringify(to) }
    }
    return undefined
  }
  // A name holding a secret of the run (a weak one too, which the output step leaves in a text): offered in no "did you mean".
  if (holds) for (const index of [names.target, names.agent, names.team]) index.hideWhere(holds)
  // An agent the configuration finds by a name from a variable: shown by that name nowhere (nor offered in a "did you mean").
  for (const resource of configuration) {
    if (resource.kind === 'agent' && resource.id === '' && resource.naturalKey && resource.templates.has(resource.naturalKey.field)) {
      for (const id of names.agent.idsNamed(resource.naturalKey.value)) names.agent.hide(id)
    }
  }
  const byRename = (id: string, name: string): boolean => renamed.get(id) === name && (live.agents ?? []).some((agent) => isObject(agent) && agent.id === id && agent.name !== name)
  return { names, renamedFrom, byRename }
}

/**
 * Resolves declared identities and references by name against the live lists (those that
 * `listsNeeded` asked for; a list not given counts as empty). `configuration` is every declared
 * resource, `declared` those selected.
 */
export function resolveIdentities(declared: readonly DesiredResource[], live: LiveLists, configuration: readonly DesiredResource[] = declared, holds?: (text: string) => boolean): Resolution {
  const { names, renamedFrom, byRename } = nameIndexes(live, configuration, holds)
  const urls = urlIndex(live.targets ?? [])
  const errors: Diagnostic[] = []
  const resources: DesiredResource[] = []
  const creations: DesiredResource[] = []
  const references = new Map<DesiredResource, NameReference[]>()
  // Indexed loops: this runs once, over every declared resource, in code V8 has not optimised,
  // where each step of `for…of` allocates an iterator's result.
  for (let r = 0; r < declared.length; r++) {
    const resource = declared[r]
    const problems: Diagnostic[] = []
    let resolved = resource
    if (resource.id === '' && resource.naturalKey) {
      const id = findByKey(resource, urls, names, problems, renamedFrom, holds)
      if (id !== undefined) resolved = { ...resolved, id }
    }
    const found: NameReference[] = []
    const fields = replaceNameReferences(resolved, names, problems, renamedFrom, holds, found, byRename)
    if (fields !== resolved.fields) resolved = { ...resolved, fields, templates: movedTemplates(resolved.templates, fields) }
    if (found.length > 0) references.set(resolved, found)
    for (let p = 0; p < problems.length; p++) errors.push(problems[p])
    resources.push(resolved)
    if (resolved.kind === 'target' && resolved.id === '' && problems.length === 0) creations.push(resolved)
  }
  for (const problem of declaredTwice(declared, resources, holds)) errors.push(problem)
  return { resources, creations, errors, names, references }
}

/** The live id of a resource declared without one; undefined for a target to create or an error (pushed). */
function findByKey(resource: DesiredResource, urls: ReturnType<typeof urlIndex>, names: Resolution['names'], problems: Diagnostic[], renamedFrom: (name: string) => { id: string; to: string } | undefined, holds?: (text: string) => boolean): string | undefined {
  const key = resource.naturalKey!
  const at = key.field.split('.')
  if (resource.kind === 'target') {
    const ids = urls.idsOf(key.value)
    if (ids.length === 1) return ids[0]
    if (ids.length > 1) problems.push(problem(resource, at, `${declaredLabel(resource, holds)}: ${ids.length} live targets have this URL (${ids.join(', ')}): write the id of the one you mean`, holds))
    else {
      // The creation's name may not be blank (target-create.request.schema.json): said here, not as the service's 400 at apply.
      const name = getPath(resource.fields, ['site', 'name'])
      if (typeof name !== 'string') problems.push(problem(resource, at, `${declaredLabel(resource, holds)}: no live target has this URL, so it would be created, and a target to create needs site.name`, holds))
      else if (name === '') problems.push(problem(resource, ['site', 'name'], `${declaredLabel(resource, holds)}: no live target has this URL, so it would be created, and a target to create needs a site.name that is not empty`, holds))
    }
    return undefined
  }
  const ids = names.agent.idsNamed(key.value)
  if (ids.length === 1) return ids[0]
  if (ids.length > 1) problems.push(problem(resource, at, `${declaredLabel(resource, holds)}: ${ids.length} live agents have this name (${ids.join(', ')}): write the id of the one you mean`, holds))
  else {
    // The live agent named so now, which the configuration renames by its id: that agent, declared twice (said below).
    const renaming = resource.templates.has(key.field) ? undefined : renamedFrom(key.value)
    if (renaming) return renaming.id
    problems.push(problem(resource, at, `${declaredLabel(resource, holds)}: no live agent has this name${suggestion(key.value, names.agent, resource.templates.has(key.field))}; agents are created by installing them, never by scansync`, holds))
  }
  return undefined
}

/** The fields with `{name}` references replaced by `{id}`; the same object when there are none. */
function replaceNameReferences(
  resource: DesiredResource,
  names: Resolution['names'],
  problems: Diagnostic[],
  renamedFrom: (name: string) => { id: string; to: string } | undefined,
  holds: ((text: string) => boolean) | undefined,
  found: NameReference[],
  byRename: (id: string, name: string) => boolean,
): JsonObject {
  const { fields } = resource
  const resolvedTo = (place: string, kind: NameReference['kind'], name: string, id: string) =>
    found.push({ place, kind, name, id, fromVariable: resource.templates.has(place), ...(kind === 'agent' && byRename(id, name) ? { byRename: true } : {}) })
  if (resource.kind === 'target' && isNameRef(fields.scanning_agent)) {
    const id = idOfName(resource, ['scanning_agent', 'name'], fields.scanning_agent.name, 'agent', names.agent, problems, renamedFrom, holds)
    if (id !== undefined) resolvedTo('scanning_agent.name', 'agent', fields.scanning_agent.name, id)
    return id === undefined ? fields : { ...fields, scanning_agent: { id } }
  }
  if (resource.kind === 'agent' && Array.isArray(fields.teams) && fields.teams.some(isNameRef)) {
    let failed = false
    const teams = fields.teams.map((team, index) => {
      if (!isNameRef(team)) return team
      const id = idOfName(resource, ['teams', index, 'name'], team.name, 'team', names.team, problems, undefined, holds)
      if (id === undefined) failed = true
      else resolvedTo(`teams[${index}].name`, 'team', team.name, id)
      return { id }
    })
    return failed ? fields : { ...fields, teams }
  }
  return fields
}

function idOfName(resource: DesiredResource, at: PathSegments, name: string, kind: 'agent' | 'team', index: NameIndex, problems: Diagnostic[], renamedFrom?: (name: string) => { id: string; to: string } | undefined, holds?: (text: string) => boolean): string | undefined {
  const ids = index.idsNamed(name)
  if (ids.length === 1) return ids[0]
  const place = `${declaredLabel(resource, holds)}: ${formatPath(at)}`
  const secret = resource.templates.has(formatPath(at))
  // A literal name holding a secret of the run (a weak one, which the output step leaves in a text) too.
  const shown = secret || holds?.(name) === true ? SENSITIVE : JSON.stringify(name)
  // Not for a name from a variable: which agent it names would say what the variable holds.
  const renaming = ids.length === 0 && !secret ? renamedFrom?.(name) : undefined
  if (ids.length > 1) problems.push(problem(resource, at, `${place}: ${ids.length} ${kind}s are named ${shown} (${ids.join(', ')}): refer to the one you mean by its id`, holds))
  else if (renaming) problems.push(problem(resource, at, `${place}: no ${kind} will be named ${shown} after the apply: ${renaming.id}, named so now, is renamed ${renaming.to} by the configuration; refer to it by that name or by its id`, holds))
  else if (!secret && shown !== SENSITIVE && index.has(name)) {
    // An id written as a name: said whose id it is (its name only where it may be shown).
    const named = index.referenceName(name)
    problems.push(problem(resource, at, `${place}: no ${kind} is named ${shown}; it is the id of ${kind} ${named === undefined || named === SENSITIVE ? name : JSON.stringify(named)}: write the id without name:, as {id: ${shown}}`, holds))
  } else problems.push(problem(resource, at, `${place}: no ${kind} is named ${shown}${suggestion(name, index, secret)}`, holds))
  return undefined
}

/**
 * References by id (`scanning_agent: {id}`, `teams: [{id}]`) that no listed agent or team has: a
 * problem at each id. Checked against a list read (not one left unread), and not for an agent
 * `declared` (the resources the run reads) holds by id: the plan reads that agent, and says so if
 * it is gone. One only `configuration` declares (--kind or --id left it out) is not read: checked.
 */
export function danglingIdProblems(
  declared: readonly DesiredResource[],
  live: LiveLists,
  configuration: readonly DesiredResource[] = declared,
  holds?: (text: string) => boolean,
  sends: Sends = () => true,
): Diagnostic[] {
  const check: IdCheck = { agent: live.agents !== undefined, team: live.teams !== undefined, declaredAgents: live.agents === undefined ? new Set<string>() : declaredAgentIds(declared), suggested: new Map() }
  if (!check.agent && !check.team) return []
  const names = { agent: new NameIndex(live.agents), team: new NameIndex(live.teams) }
  // A name from a variable, or holding a secret of the run, is offered in no "did you mean".
  for (const resource of configuration) {
    if (resource.kind !== 'agent') continue
    if (resource.id !== '' && resource.templates.has('name')) names.agent.hide(resource.id)
    if (resource.id === '' && resource.naturalKey && resource.templates.has(resource.naturalKey.field)) for (const id of names.agent.idsNamed(resource.naturalKey.value)) names.agent.hide(id)
  }
  if (holds) for (const index of [names.agent, names.team]) index.hideWhere(holds)
  const problems: Diagnostic[] = []
  for (let r = 0; r < declared.length; r++) danglingIds(declared[r]!, names, check, problems, sends, holds)
  return problems
}

/**
 * Whether the apply sends a reference (`scanning_agent`, a team of `teams`) that the live resource
 * does not hold already: only those are checked. One it holds is the service's own (a team list
 * that shows a caller only some teams must not refuse a configuration that changes nothing there).
 */
export type Sends = (resource: DesiredResource, field: 'scanning_agent' | 'teams', id: string) => boolean

interface IdCheck {
  /** Whether the agent (team) list was read: ids are checked only against a list read. */
  agent: boolean
  team: boolean
  /** Agents the run declares by id: not checked here (the plan reads each). */
  declaredAgents: ReadonlySet<string>
  /** The "did you mean" of each unknown id, worked out once (a shared YAML block repeats one id in many resources). */
  suggested: Map<string, string>
}

function danglingIds(resource: DesiredResource, names: Pick<Resolution['names'], 'agent' | 'team'>, check: IdCheck, problems: Diagnostic[], sends: Sends, holds?: (text: string) => boolean): void {
  const { fields } = resource
  if (resource.kind === 'target' && check.agent) {
    const agent = fields.scanning_agent
    if (isIdRef(agent) && !check.declaredAgents.has(agent.id) && !names.agent.has(agent.id) && sends(resource, 'scanning_agent', agent.id)) unknownId(resource, ['scanning_agent'], agent.id, 'agent', names.agent, check, problems, holds)
  } else if (resource.kind === 'agent' && check.team && Array.isArray(fields.teams)) {
    for (let index = 0; index < fields.teams.length; index++) {
      const team = fields.teams[index]
      if (isIdRef(team) && !names.team.has(team.id) && sends(resource, 'teams', team.id)) unknownId(resource, ['teams', index], team.id, 'team', names.team, check, problems, holds)
    }
  }
}

function unknownId(resource: DesiredResource, reference: PathSegments, id: string, kind: 'agent' | 'team', index: NameIndex, check: IdCheck, problems: Diagnostic[], holds?: (text: string) => boolean): void {
  // At the id itself: `scanning_agent: ZZZ` (the loader made it `{id: ZZZ}`) or `{id: ZZZ}`.
  const at = [...reference, 'id']
  const secret = resource.templates.has(formatPath(at))
  const shown = secret || holds?.(id) === true ? SENSITIVE : JSON.stringify(id)
  const key = `${kind}\0${secret}\0${id}`
  let suggested = check.suggested.get(key)
  if (suggested === undefined) check.suggested.set(key, (suggested = idSuggestion(id, kind, index, secret, holds)))
  problems.push(problem(resource, at, `${declaredLabel(resource, holds)}: ${formatPath(reference)}: no ${kind} has the id ${shown}${suggested}`, holds))
}

/** As `suggestion`, for an id: the near one (with its name), or the known ones (a few), or nothing. None for an id from a variable. */
function idSuggestion(id: string, kind: 'agent' | 'team', index: NameIndex, secret: boolean, holds?: (text: string) => boolean): string {
  if (secret) return ' (the id comes from a variable, so no known id is shown)'
  const known = index.knownIds().filter((item) => holds?.(item.id) !== true).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const shown = (item: { id: string; name?: string }) => `${JSON.stringify(item.id)}${item.name === undefined ? '' : ` (named ${JSON.stringify(item.name)})`}`
  // A name written as a bare value, which is an id: said whose name it is, and how to write it.
  const named = holds?.(id) === true ? [] : known.filter((item) => item.name === id)
  if (named.length === 1) return `; it is the name of ${kind} ${named[0].id}: a bare value is an id, write {name: ${JSON.stringify(id)}} or the id`
  if (named.length > 1) return `; it is the name of ${named.length} ${kind}s (${named.map((item) => item.id).join(', ')}): a bare value is an id, write the id of the one you mean`
  const near = closest(id, known.map((item) => item.id))
  if (near !== undefined) return `; did you mean ${shown(known.find((item) => item.id === near)!)}?`
  if (known.length === 0) return ' (there are none)'
  return ` (known: ${known.slice(0, KNOWN_SHOWN).map(shown).join(', ')}${known.length > KNOWN_SHOWN ? `, and ${known.length - KNOWN_SHOWN} more` : ''})`
}

/**
 * `; did you mean "Platform"?`, or the known names (a few), or nothing when there are none. None
 * for a name from a variable (a secret): a near name, or a known one with the secret in it, would
 * say what it is.
 */
function suggestion(name: string, index: NameIndex, secret = false): string {
  if (secret) return ' (the name comes from a variable, so no known name is shown)'
  const known = index.names().sort()
  const near = closest(name, known)
  if (near !== undefined) return `; did you mean ${JSON.stringify(near)}?`
  if (known.length === 0) return ' (there are none)'
  const shown = known.slice(0, KNOWN_SHOWN).map((n) => JSON.stringify(n)).join(', ')
  return ` (known: ${shown}${known.length > KNOWN_SHOWN ? `, and ${known.length - KNOWN_SHOWN} more` : ''})`
}

const KNOWN_SHOWN = 10

/** A value from a variable keeps its template when its reference by name became one by id. */
function movedTemplates(templates: Map<string, string>, fields: JsonObject): Map<string, string> {
  if (templates.size === 0) return templates
  const moved = new Map<string, string>()
  for (const [place, template] of templates) {
    const team = /^teams\[(\d+)\]\.name$/.exec(place)
    const reference = team ? (fields.teams as unknown[] | undefined)?.[Number(team[1])] : place === 'scanning_agent.name' ? fields.scanning_agent : undefined
    const replaced = isObject(reference) && reference.id !== undefined && reference.name === undefined
    moved.set(replaced ? place.replace(/name$/, 'id') : place, template)
  }
  return moved
}

/** A live resource found by key that is also declared by its id (or found twice): both places named. */
function* declaredTwice(declared: readonly DesiredResource[], resolved: readonly DesiredResource[], holds?: (text: string) => boolean): Generator<Diagnostic> {
  const byId = new Map<string, number>()
  for (let index = 0; index < resolved.length; index++) {
    const resource = resolved[index]
    if (resource.id === '') continue
    const key = `${resource.kind}\0${resource.id}`
    const earlier = byId.get(key)
    if (earlier === undefined) {
      byId.set(key, index)
      continue
    }
    // Declared ids twice are the loader's to report; here one side at least was found by its key.
    const [first, second] = [declared[earlier], declared[index]]
    if (first.id !== '' && second.id !== '') continue
    const where = (resource: DesiredResource) => {
      const position = keyOrIdPosition(resource)
      return `${position.file}:${position.line}`
    }
    const message = (self: DesiredResource, other: DesiredResource) =>
      `${declaredLabel(self, holds)} is the live ${resource.kind} ${resource.id}, also declared at ${where(other)}${other.id === '' ? ` (by its ${other.naturalKey!.field})` : ''}: declare it once (keep the id)`
    yield located(first, message(first, second))
    yield located(second, message(second, first))
  }
}

/** Where a resource says who it is: its natural key when declared without id, else its id. */
const identifiedAt = (resource: DesiredResource): string[] => (resource.id === '' && resource.naturalKey ? resource.naturalKey.field.split('.') : ['id'])

const keyOrIdPosition = (resource: DesiredResource) => resource.locate(identifiedAt(resource))

const located = (resource: DesiredResource, message: string): Diagnostic => problem(resource, identifiedAt(resource), message)


/**
 * A problem at a place inside a resource (`path` relative to it, as the plan's other checks write
 * it). `holds`: the run's secrets, as the message's opening name was quoted with them (declaredLabel).
 */
function problem(resource: DesiredResource, at: PathSegments, message: string, holds?: (text: string) => boolean): Diagnostic {
  const position = resource.locate(at)
  return { file: position.file, line: position.line, column: position.column, path: formatPath(at), message, subject: declaredLabel(resource, holds) }
}

/** The kinds `drift --unmanaged` lists the live resources of (assets are not listed). */
export const UNMANAGED_KINDS = ['target', 'agent'] as const

export interface Unmanaged {
  kind: (typeof UNMANAGED_KINDS)[number]
  id: string
  name: string | null
}

/**
 * The live targets and agents that no declared resource is, by id or by natural key (give the
 * resolved resources): what `drift --unmanaged` lists, by kind (target, agent), then id.
 */
export function unmanaged(resolved: readonly DesiredResource[], live: Pick<LiveLists, 'targets' | 'agents'>, names: Pick<Resolution['names'], 'target' | 'agent'>): Unmanaged[] {
  const declared = new Set(resolved.filter((r) => r.id !== '').map((r) => `${r.kind}\0${r.id}`))
  const out: Unmanaged[] = []
  const lists = { target: live.targets, agent: live.agents }
  for (const kind of UNMANAGED_KINDS) {
    const ids = (lists[kind] ?? []).flatMap((item) => (isObject(item) && typeof item.id === 'string' ? [item.id] : []))
    for (const id of ids.sort()) if (!declared.has(`${kind}\0${id}`)) out.push({ kind, id, name: names[kind].nameOf(id) ?? null })
  }
  return out
}
