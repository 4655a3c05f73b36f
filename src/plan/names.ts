import { isObject } from '../core/json.js'
import { SENSITIVE, type KindName } from '../core/types.js'
import type { NameIndex } from '../resources/identity.js'
import type { FieldChange, Plan } from './model.js'

/** The fields that hold ids of other things, and which names stand for them. */
const REFERENCES: ReadonlyArray<{ kind: KindName; path: string; names: 'team' | 'agent' }> = [
  { kind: 'agent', path: 'teams', names: 'team' },
  { kind: 'target', path: 'scanning_agent', names: 'agent' },
]

/**
 * Names instead of ids where the plan shows references (`teams: [Platform] -> [Platform, Security]`,
 * `scanning_agent: dc-lisbon-agent`); an id stays where no name is known. Only how the values
 * read changes: the plan's values (and its JSON) keep the ids.
 */
export function showNames(plan: Plan, names: ShownNames): Plan {
  for (const change of plan.changes) {
    for (const reference of REFERENCES) {
      if (change.kind !== reference.kind) continue
      for (const field of change.fields) {
        if (field.path !== reference.path || field.sensitive) continue
        const index = names[reference.names]
        const before = named(field.before, index)
        const after = named(field.after, index)
        if (before === undefined && after === undefined) continue
        field.display = { ...(before !== undefined ? { before } : {}), ...(after !== undefined ? { after } : {}) } as FieldChange['display']
      }
    }
  }
  return plan
}

/** Where showNames finds the name of an id. */
export type ShownNames = Record<'team' | 'agent', Pick<NameIndex, 'nameOf'>>

/** Names by id, as a saved plan keeps them: those of the ids a plan's references hold, that `keep` lets be written. */
export type NamesById = Partial<Record<'team' | 'agent', Record<string, string>>>

/** The names the plan shows for its references' ids, by id (a saved plan keeps them for apply --plan), each as `shown` writes it. */
export function namesShown(plan: Plan, names: ShownNames, shown: (name: string) => string): NamesById {
  const out: NamesById = {}
  for (const change of plan.changes) {
    for (const reference of REFERENCES) {
      if (change.kind !== reference.kind) continue
      for (const field of change.fields) {
        if (field.path !== reference.path || field.sensitive) continue
        for (const id of referencedIds(field.before).concat(referencedIds(field.after))) {
          const name = names[reference.names].nameOf(id)
          if (name !== undefined) (out[reference.names] ??= {})[id] = shown(name)
        }
      }
    }
  }
  return out
}

/**
 * A name as plans show it, printed or saved: (sensitive) when it holds a secret of the run (a
 * variable's value, a weak one too, which the output step leaves in a text).
 */
export const nameShown =
  (redaction: { file(text: string): string; holds(text: string): boolean }) =>
  (name: string): string =>
    redaction.file(JSON.stringify(name)) === JSON.stringify(name) && !redaction.holds(name) ? name : SENSITIVE

/** The names references are shown by (NameIndex.referenceName: the id where a name is shared), as showNames reads them. */
export const referenceNames = (names: Record<'team' | 'agent', Pick<NameIndex, 'referenceName'>>): ShownNames => ({
  team: { nameOf: (id) => names.team.referenceName(id) },
  agent: { nameOf: (id) => names.agent.referenceName(id) },
})

/** The names of `names`, each as `shown` writes it (nameShown). */
export const namesThrough = (names: ShownNames, shown: (name: string) => string): ShownNames => {
  const through = (index: ShownNames['team']) => ({ nameOf: (id: string) => mapped(index.nameOf(id), shown) })
  return { team: through(names.team), agent: through(names.agent) }
}

const mapped = (name: string | undefined, shown: (name: string) => string): string | undefined => (name === undefined ? undefined : shown(name))

/** A saved plan's names as showNames reads them. */
export const savedNames = (names: NamesById | undefined): ShownNames => {
  const index = (byId: Record<string, string> | undefined) => ({ nameOf: (id: string) => (byId !== undefined && Object.hasOwn(byId, id) ? byId[id] : undefined) })
  return { agent: index(names?.agent), team: index(names?.team) }
}

/**
 * A name as it reads unquoted, or in quotes where spaces at its ends (or none at all) would not show:
 * an agent moved to one named `dc-lisbon-agent ` read `scanning_agent: dc-lisbon-agent -> dc-lisbon-agent `.
 */
const readable = (name: string): string => (name === '' || name.trim() !== name ? JSON.stringify(name) : name)

const referencedIds = (value: unknown): string[] => (Array.isArray(value) ? value : [value]).flatMap((item) => (typeof item === 'string' ? [item] : isObject(item) && typeof item.id === 'string' ? [item.id] : []))

/** `[Platform, Tm8Kq2Xa9Lp3]`, `dc-lisbon-agent`; undefined when no name is known (the value is shown as it is). */
function named(value: unknown, index: Pick<NameIndex, 'nameOf'>): string | undefined {
  // The plan holds a reference as `{id}`, or as the bare id where it lists a set's keys.
  const idOf = (item: unknown) => (typeof item === 'string' ? item : isObject(item) && typeof item.id === 'string' ? item.id : undefined)
  // A live reference the service answered by its name alone (`{name}`) is shown by that name.
  const nameOf = (item: unknown) => {
    const id = idOf(item)
    const name = id !== undefined ? index.nameOf(id) : isObject(item) && typeof item.name === 'string' ? item.name : undefined
    return name === undefined ? undefined : readable(name)
  }
  if (Array.isArray(value)) {
    if (!value.some((item) => nameOf(item) !== undefined)) return undefined
    return `[${value.map((item) => nameOf(item) ?? idOf(item) ?? JSON.stringify(item)).join(', ')}]`
  }
  return nameOf(value)
}
