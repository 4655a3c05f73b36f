import { SENSITIVE, type DesiredResource } from '../core/types.js'
import { nameIndexes, type LiveLists, type NameReference } from '../resources/identity.js'
import { declaredLabel } from '../resources/label.js'
import { namesProblem, type PlannedResource, type Ready, type ReadWhen } from './staleness.js'

// References by name (`scanning_agent: {name}`, `teams: [{name}]`) were turned into ids from the
// lists read before the confirmation (or before the saved plan was written). An apply that sends
// such an id resolves the name again, from lists read after the confirmation, through the same
// name indexes (src/resources/identity.ts, nameIndexes): pure; src/apply/refresh.ts reads the lists.

/** The field a reference's id is sent in. */
const fieldOf = (reference: NameReference): 'scanning_agent' | 'teams' => (reference.place.startsWith('teams') ? 'teams' : 'scanning_agent')

/**
 * The references by name whose ids the request of a planned resource carries: every one for a
 * target to create; for an update, those in a field it sends (`units`: the fresh read's, else the
 * fields the plan shows).
 */
export function namesSent(planned: PlannedResource, units?: readonly string[]): NameReference[] {
  const references = planned.references ?? []
  if (references.length === 0 || planned.change.action === 'create') return [...references]
  const sent = new Set((units ?? planned.change.fields.map((field) => field.path)).map((path) => /^[^.[]*/.exec(path)![0]))
  return references.filter((reference) => sent.has(fieldOf(reference)))
}

/** The lists to read again for the names the planned resources' requests carry as ids (neither: no read). */
export function listsForNames(planned: readonly PlannedResource[]): { agents: boolean; teams: boolean } {
  const needed = { agents: false, teams: false }
  for (const resource of planned) {
    for (const reference of namesSent(resource)) needed[reference.kind === 'agent' ? 'agents' : 'teams'] = true
  }
  return needed
}

/**
 * The configuration a saved plan's names are resolved again with: its own resources, and each agent
 * a name meant only because the configuration renames it (byRename), under that name.
 */
export function savedConfiguration(planned: readonly PlannedResource[]): DesiredResource[] {
  const renames = planned.flatMap((resource) =>
    (resource.references ?? [])
      .filter((reference) => reference.byRename === true)
      .map((reference): DesiredResource => ({ kind: 'agent', id: reference.id, fields: { name: reference.name }, templates: new Map(), source: resource.desired.source, locate: () => resource.desired.source })),
  )
  return [...planned.map((resource) => resource.desired), ...renames]
}

/**
 * Why nothing may be sent, when a name whose id a ready request carries means another id now, none
 * or several (`lists`: read after the confirmation); undefined when every one means the same id.
 * Each is named at its YAML line; a name that is a secret is (sensitive), its ids unsaid.
 */
export function namesChanged(ready: readonly Ready[], lists: LiveLists, configuration: readonly DesiredResource[], when: ReadWhen, holds?: (text: string) => boolean): string | undefined {
  const { names } = nameIndexes(lists, configuration)
  const lines: string[] = []
  for (const { planned, comparison } of ready) {
    for (const reference of namesSent(planned, planned.change.action === 'create' ? undefined : comparison.units)) {
      const now = names[reference.kind].idsNamed(reference.name)
      if (now.length === 1 && now[0] === reference.id) continue
      lines.push(`${where(planned.desired, reference.place)}: ${declaredLabel(planned.desired, holds)}: ${reference.place}: ${meaning(reference, now, holds)}`)
    }
  }
  return lines.length === 0 ? undefined : namesProblem(lines, when)
}

/** `file:line` of a place in the YAML (`teams[1].name`). */
function where(resource: DesiredResource, place: string): string {
  const segments = place.split(/[.[\]]+/).filter(Boolean).map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment))
  const at = resource.locate(segments)
  return `${at.file}:${at.line}`
}

/** What the name meant when the plan was made, and what it means now. */
function meaning(reference: NameReference, now: readonly string[], holds?: (text: string) => boolean): string {
  const { kind } = reference
  if (reference.fromVariable || holds?.(reference.name) === true) {
    // Which ids it means would say which name the variable holds.
    const count = now.length === 0 ? `no ${kind}` : now.length === 1 ? `another ${kind}` : `${now.length} ${kind}s`
    return `the ${kind} named ${SENSITIVE} meant one ${kind} when the plan was made, now ${count}`
  }
  const count = now.length === 0 ? `no ${kind} is named so` : now.length === 1 ? `${kind} ${now[0]}` : `${now.length} ${kind}s are named so (${now.join(', ')})`
  return `the ${kind} named ${JSON.stringify(reference.name)} meant ${kind} ${reference.id} when the plan was made, now ${count}`
}
