import type { DesiredResource, JsonObject, KindName } from '../core/types.js'
import { isObject } from '../core/json.js'
import type { ResourceKind } from './kind.js'

/*
 * References the service may answer without their id: the document makes the id of the agent
 * embedded in a target optional ("`id` optional string, `name` req"), and of an agent's teams too
 * ("elements `{id: string, name: string req}`"). The projection keeps such a reference as `{name}`
 * (never an object dump); the comparison then takes it for the declared id when the agents or
 * teams the run read give that id that name (DesiredResource.referenceNames), and no other one
 * they read carries it. Otherwise it stays a change, shown by the live name.
 */

/** Live names by id of the agents and teams a run read, by the kind of thing a reference names. */
export type ReferenceNames = Partial<Record<'agent' | 'team', ReadonlyMap<string, string>>> & {
  /** The names, before and after, of the agents the apply renames (shareRenamesAmong). */
  renamed?: ReadonlyMap<string, readonly string[]>
}

/** A live reference as compared: `{id}`, or `{name}` where the service answered a name and no id. */
export function liveReference(value: JsonObject): JsonObject {
  return (value.id === undefined || value.id === null) && typeof value.name === 'string' ? { name: value.name } : { id: value.id }
}

/** A projected reference the service answered by name alone. */
const byNameOnly = (value: unknown): value is { name: string } => isObject(value) && value.id === undefined && typeof value.name === 'string'

/** An answered reference (before projection) without an id: one that may need the run's names. */
const withoutId = (value: unknown): boolean => isObject(value) && (value.id === undefined || value.id === null) && typeof value.name === 'string'

/** Whether a live answer holds a reference without id (a plan then compares it once the run's names are read). */
export function holdsReferenceByName(kind: Pick<ResourceKind, 'references'>, raw: JsonObject): boolean {
  for (const path in kind.references ?? {}) {
    const value = raw[path]
    if (Array.isArray(value) ? value.some(withoutId) : withoutId(value)) return true
  }
  return false
}

/**
 * The projected live resource with each reference answered by name alone turned into the declared
 * id the run's names give that name (the same object when there is none to settle).
 */
export function settleReferences(kind: Pick<ResourceKind, 'references'>, live: JsonObject, desired: Pick<DesiredResource, 'fields' | 'referenceNames'>): JsonObject {
  const names = desired.referenceNames
  if (names === undefined || kind.references === undefined) return live
  let settled = live
  for (const [path, family] of Object.entries(kind.references)) {
    const byId = names[family]
    const value = live[path]
    if (byId === undefined) continue
    const declared = desired.fields[path]
    const declaredIds = (Array.isArray(declared) ? declared : [declared]).flatMap((item) => (isObject(item) && typeof item.id === 'string' ? [item.id] : []))
    // An agent the apply renames answers by either name, as its write lands before or after.
    const renamed = family === 'agent' ? names.renamed : undefined
    const carries = (id: string, name: string) => byId.get(id) === name || renamed?.get(id)?.includes(name) === true
    // A name another agent or team the run read carries too names none of them for sure: the
    // service may hold the other one, so it stays a change.
    const idNamed = (name: string) => {
      const carriers = new Set([...byId.keys(), ...(renamed?.keys() ?? [])].filter((id) => carries(id, name)))
      return carriers.size === 1 ? declaredIds.find((id) => carriers.has(id)) : undefined
    }
    if (byNameOnly(value)) {
      const id = idNamed(value.name)
      if (id !== undefined) settled = { ...settled, [path]: { id } }
    } else if (Array.isArray(value) && value.some(byNameOnly)) {
      settled = { ...settled, [path]: value.map((item) => (byNameOnly(item) ? ((id) => (id === undefined ? item : { id }))(idNamed(item.name)) : item)) }
    }
  }
  return settled
}

/**
 * Before an apply sends: an agent it renames may answer a reference sent in the same apply (a
 * target's scanning agent) by its name before or after the rename, as the writes land; the
 * resources compared by name take both as that agent's (its live name from the read the requests
 * are built from, and its declared one).
 */
export function shareRenamesAmong(compared: ReadonlyArray<{ desired: DesiredResource; live: JsonObject }>): void {
  const renamed = new Map<string, string[]>()
  for (const { desired, live } of compared) {
    const [before, after] = [live.name, desired.fields.name]
    if (desired.kind === 'agent' && desired.id !== '' && typeof before === 'string' && typeof after === 'string' && before !== after) renamed.set(desired.id, [before, after])
  }
  if (renamed.size === 0) return
  for (const { desired } of compared) if (desired.referenceNames !== undefined) desired.referenceNames = { ...desired.referenceNames, renamed }
}

/**
 * Whether a live value of a reference field (a change's `before`) names by name alone an agent or
 * team whose name the secrets state records as applied from a variable (`known`): shown nowhere,
 * as such a name is where the reference holds its id (agents only: teams are not declared).
 */
export function namesRecordedSecret(kind: Pick<ResourceKind, 'references'>, field: string, value: unknown, desired: Pick<DesiredResource, 'referenceNames'>, known: ((kind: KindName, id: string, value: string) => boolean) | undefined): boolean {
  // Only agents are declared, so only their names are recorded.
  const byId = kind.references?.[field] === 'agent' ? desired.referenceNames?.agent : undefined
  if (byId === undefined || known === undefined) return false
  return (Array.isArray(value) ? value : [value]).some((item) => byNameOnly(item) && [...byId].some(([id, name]) => name === item.name && known('agent', id, name)))
}
