import type { JsonObject } from '../core/types.js'
import { readAll, readDeclared, type Requester } from '../live/read.js'
import { readTeams } from '../live/teams.js'
import type { LiveLists, NameReference } from '../resources/identity.js'
import { listsForNames, namesChanged } from '../plan/names-again.js'
import { liveKey, type Comparison } from '../plan/build-plan.js'
import type { Plan, ResourceChange } from '../plan/model.js'
import { checkFreshness, doneNote, freshnessProblem, goneProblem, plannedKey, planOfReady, type Freshness, type PlannedResource, type Ready, type ReadWhen } from '../plan/staleness.js'
import { ScansyncError } from '../core/errors.js'
import { declaredSecrets } from '../secrets/redact.js'
import { resourceKey, type SecretContext } from '../secrets/state.js'
import type { DesiredResource } from '../core/types.js'
import type { PendingChange } from './executor.js'
import { creationBody, freshCreations } from './create.js'
import { KIND_NAMES, KINDS } from '../resources/index.js'

/**
 * Reads the planned resources again and sorts them by what changed since the plan: what a request
 * fills in from live then comes from this read, made just before sending.
 */
export async function readFresh(all: readonly PlannedResource[], client: Requester, secrets: SecretContext): Promise<Freshness> {
  const creations = all.filter((p) => p.change.action === 'create')
  const planned = creations.length === 0 ? all : all.filter((p) => p.change.action !== 'create')
  const live = new Map<string, JsonObject>()
  let fresh: Freshness | undefined
  await Promise.all([
    creations.length > 0 && freshCreations(creations, client, secrets).then((found) => (fresh = found)),
    readDeclared(
      planned.map((p) => p.desired),
      client,
      { onResource: (kind, id, body) => live.set(liveKey(kind.name, id), body) },
    ),
  ])
  const updates = checkFreshness(planned, live, secrets)
  return fresh ? { ready: [...fresh.ready, ...updates.ready], stale: [...fresh.stale, ...updates.stale], done: [...fresh.done, ...updates.done] } : updates
}

/** A read's words for a resource that answered 404 (as prepare-plan.ts explains them for a plan). */
const GONE = new RegExp(`\\b(${KIND_NAMES.join('|')}) \\S+ not found$`, 'm')

/**
 * The lists the names whose ids the planned requests carry were resolved from, read again (through
 * the one list reader); none read when no request carries an id from a name.
 */
export async function readNameLists(planned: readonly PlannedResource[], client: Requester): Promise<LiveLists> {
  const needed = listsForNames(planned)
  const lists: LiveLists = {}
  await Promise.all([
    needed.agents && readAll(KINDS.agent, client).then((items) => (lists.agents = items)),
    needed.teams && readTeams(client).then((items) => (lists.teams = items)),
  ])
  return lists
}

/**
 * The resources still to send after a fresh read, and a note naming those already as planned.
 * Throws, nothing sent, when any changed on the service since the plan, or when a name whose id a
 * request carries means another id now (resolved again with `configuration`: the declared
 * resources, which may rename agents; default the planned ones).
 */
export async function stillToSend(planned: readonly PlannedResource[], client: Requester, secrets: SecretContext, when: ReadWhen, configuration: readonly DesiredResource[] = planned.map((p) => p.desired)): Promise<{ ready: Ready[]; note?: string }> {
  let freshness: Freshness
  let lists: LiveLists
  try {
    ;[freshness, lists] = await Promise.all([readFresh(planned, client, secrets), readNameLists(planned, client)])
  } catch (error) {
    // A resource the plan changes answered 404 (one read, or one of several that failed): deleted since.
    if (error instanceof ScansyncError && GONE.test(error.message)) throw new ScansyncError(goneProblem(error.message, when))
    throw error
  }
  const problem = freshnessProblem(freshness, when) ?? namesChanged(freshness.ready, lists, configuration, when, secrets.holds)
  if (problem) throw new ScansyncError(problem)
  return { ready: freshness.ready, note: doneNote(freshness, when) }
}

/**
 * After a confirmation (or a wait for another apply's creation lock): whatever a request fills in
 * from live comes from a read made after it, and the plan keeps only what is still to send
 * (refused whole if a declared field changed).
 */
export async function readAfterConfirmation(
  plan: Plan,
  ready: readonly Ready[],
  client: Requester,
  secrets: SecretContext,
  when: 'confirmed' | 'waited' = 'confirmed',
  configuration?: readonly DesiredResource[],
): Promise<{ plan: Plan; ready: Ready[]; note?: string }> {
  const fresh = await stillToSend(ready.map((r) => r.planned), client, secrets, when, configuration)
  return { plan: planOfReady(plan, fresh.ready), ready: fresh.ready, ...(fresh.note ? { note: fresh.note } : {}) }
}

/**
 * The planned resources of a plan just made, each paired with its change by kind and id, with the
 * references by name its fields had turned into ids (`references`, by resolved resource).
 */
export function plannedFrom(changed: readonly Comparison[], changes: readonly ResourceChange[], references?: ReadonlyMap<DesiredResource, readonly NameReference[]>): Ready[] {
  const byKey = new Map(changes.map((change) => [plannedKey(change), change]))
  return changed.map((comparison) => {
    const change = byKey.get(plannedKey(comparison.desired))
    if (!change) throw new Error(`internal: no change for ${comparison.desired.kind} ${comparison.desired.id}`)
    // The fingerprint is worked out only if asked (a re-read after a prompt); --auto-approve never does.
    const named = references?.get(comparison.desired)
    const planned = { desired: comparison.desired, change, get fingerprint() { return comparison.fingerprint }, ...(named ? { references: named } : {}) }
    return { planned, comparison }
  })
}

/** The request of a ready resource, built from its latest read. */
export function pendingOf({ planned, comparison }: Ready): PendingChange {
  const { kind, desired, live, raw, units, hiddenSecrets } = comparison
  if (planned.change.action === 'create') return { change: planned.change, kind, desired, request: { method: 'POST', path: kind.listPath, body: creationBody(desired) }, hiddenBefore: [] }
  return { change: planned.change, kind, desired, request: kind.buildRequest({ desired, live, raw, units }), hiddenBefore: hiddenSecrets, live, planned: comparison.fields.map((f) => f.path) }
}

/**
 * The secret values each declared resource holds, and the other texts it declares (a list key the
 * state names by its hash, because it holds a secret of the run): to re-key a state written before
 * key ids.
 */
export function declaredSecretValues(resources: readonly DesiredResource[]): (key: string) => readonly string[] {
  // Asked only for an old state's entries: each resource's secrets are looked for when asked.
  // A resource may come twice (a saved plan's, and the configuration's it was made from): both count.
  let byKey: Map<string, DesiredResource[]> | undefined
  const values = new Map<string, readonly string[]>()
  return (key) => {
    let found = values.get(key)
    if (found === undefined) {
      if (byKey === undefined) {
        byKey = new Map()
        for (const resource of resources) {
          const at = resourceKey(resource.kind, resource.id)
          byKey.set(at, [...(byKey.get(at) ?? []), resource])
        }
      }
      found = [...new Set((byKey.get(key) ?? []).flatMap((resource) => [...declaredSecrets(resource).map((secret) => secret.value), ...textsIn(resource.fields)]))]
      values.set(key, found)
    }
    return found
  }
}

function textsIn(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') found.push(value)
  else if (Array.isArray(value)) for (const item of value) textsIn(item, found)
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) textsIn(item, found)
  return found
}
