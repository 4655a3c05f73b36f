import type { DesiredResource, JsonObject } from '../core/types.js'
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
export type ReferenceNames = Partial<Record<'agent' | 'team', ReadonlyMap<string, string>>>

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
    // A name another agent or team the run read carries too names none of them for sure: the
    // service may hold the other one, so it stays a change.
    const carriers = (name: string) => [...byId.values()].filter((named) => named === name).length
    const idNamed = (name: string) => (carriers(name) === 1 ? declaredIds.find((id) => byId.get(id) === name) : undefined)
    if (byNameOnly(value)) {
      const id = idNamed(value.name)
      if (id !== undefined) settled = { ...settled, [path]: { id } }
    } else if (Array.isArray(value) && value.some(byNameOnly)) {
      settled = { ...settled, [path]: value.map((item) => (byNameOnly(item) ? ((id) => (id === undefined ? item : { id }))(idNamed(item.name)) : item)) }
    }
  }
  return settled
}
