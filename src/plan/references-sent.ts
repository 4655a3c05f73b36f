import type { JsonObject } from '../core/types.js'
import type { Sends } from '../resources/identity.js'
import { liveKey } from './build-plan.js'
import type { Plan } from './model.js'

// Which ids referred to (`scanning_agent`, `teams`) an apply would send: only those are checked
// against the service's lists (src/resources/identity.ts, danglingIdProblems).

/**
 * The references an apply of the plan sends that the live resources do not hold (identity.ts,
 * Sends): in a field the plan changes, an id not among its values before. A target to create sends all.
 */
export function referencesSent(plan: Plan): Sends {
  const held = new Map<string, Set<string>>()
  for (const change of plan.changes) {
    for (const field of change.fields) {
      const key = `${change.kind}/${change.id}/${/^[^.[]*/.exec(field.path)![0]}`
      const texts = held.get(key) ?? new Set<string>()
      collectTexts(field.before, texts)
      held.set(key, texts)
    }
  }
  return (resource, field, id) => resource.id === '' || held.get(`${resource.kind}/${resource.id}/${field}`)?.has(id) === false
}

/**
 * Without a plan (another mistake stops the run before it): a reference counts as sent unless the
 * live resource, as a list read says it (`known`, by liveKey), holds it already (as referencesSent
 * leaves it out).
 */
export function referencesNotHeld(known: ReadonlyMap<string, JsonObject>): Sends {
  return (resource, field, id) => {
    const live = resource.id === '' ? undefined : known.get(liveKey(resource.kind, resource.id))
    if (live === undefined) return true
    const idOf = (reference: unknown) => (reference !== null && typeof reference === 'object' ? (reference as { id?: unknown }).id : reference)
    const held = field === 'teams' ? (Array.isArray(live.teams) ? live.teams.map(idOf) : []) : [idOf(live.scanning_agent)]
    return !held.includes(id)
  }
}

function collectTexts(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') into.add(value)
  else if (Array.isArray(value)) for (const item of value) collectTexts(item, into)
  else if (value !== null && typeof value === 'object') for (const member of Object.values(value)) collectTexts(member, into)
}
