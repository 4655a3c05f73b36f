import { createHmac } from 'node:crypto'
import { SENSITIVE, type DesiredResource, type JsonObject, type NaturalKey } from '../core/types.js'
import { comparableUrl } from '../core/url.js'
import type { SecretContext } from '../secrets/state.js'
import { compare, fingerprint, liveKey, type Comparison } from './build-plan.js'
import type { Plan, ResourceChange } from './model.js'
import type { NameReference } from '../resources/identity.js'

/** A resource the plan changes: what it declares, what the plan shows, and the live values the plan was computed from. */
export interface PlannedResource {
  desired: DesiredResource
  change: ResourceChange
  /** SHA-256 of the live values of the declared fields when the plan was made (sealed with `fingerprintKey` when given). */
  fingerprint: string
  /**
   * A saved plan's key: its fingerprints are sealed with it (sealFingerprint), as the live values
   * may hold a secret the service answers in clear, and a bare hash would let anyone who holds the
   * plan file test guesses of it.
   */
  fingerprintKey?: string
  /**
   * A field's path in the form in which a plan's and a fresh read's are compared (a saved plan's
   * are redacted, a list key holding a secret masked whole: maskedKeys). maskedKeys alone when not given.
   */
  shownAs?: (path: string) => string
  /**
   * The references by name its fields had turned into ids (`scanning_agent: {name}`): a request
   * carrying one has the name resolved again after the confirmation (names-again.ts).
   */
  references?: readonly NameReference[]
}

/** A fingerprint as a saved plan keeps it: an HMAC keyed as the plan's checksum is. */
export const sealFingerprint = (fingerprint: string, key: string): string => createHmac('sha256', key).update(`scansync fingerprint ${fingerprint}`, 'utf8').digest('hex')

/** A planned resource compared again with what the service holds now. */
export interface Ready {
  planned: PlannedResource
  /** The comparison with the fresh read: requests are built from it, never from an older read. */
  comparison: Comparison
}

export interface Freshness {
  /** Unchanged on the service since the plan: to be sent. */
  ready: Ready[]
  /** A declared field changed on the service since the plan: the plan no longer says what would happen. */
  stale: PlannedResource[]
  /** Already as the plan wants it (applied since, by this plan or otherwise): nothing to send. */
  done: PlannedResource[]
}

/** A resource's key in a plan: its kind and id, or for one to create (no id yet) its natural key. */
export const plannedKey = (resource: { kind: string; id: string; naturalKey?: NaturalKey }): string =>
  resource.id === '' && resource.naturalKey ? `${resource.kind}+${resource.naturalKey.field === 'site.url' ? comparableUrl(resource.naturalKey.value) : resource.naturalKey.value}` : liveKey(resource.kind, resource.id)

/**
 * Sorts the planned resources by what a fresh read says: pure. A resource whose declared fields
 * hold the values the plan was computed from is ready; one that no longer differs is done; any
 * other is stale. (Fields the YAML does not declare may have changed: the request, built from the
 * fresh read, carries their new values.) A ready resource's request sends only the fields the plan shows.
 */
export function checkFreshness(planned: readonly PlannedResource[], live: ReadonlyMap<string, JsonObject>, secrets: SecretContext): Freshness {
  const freshness: Freshness = { ready: [], stale: [], done: [] }
  for (const resource of planned) {
    const raw = live.get(plannedKey(resource.desired))
    if (!raw) throw new Error(`internal: no live state for ${resource.desired.kind} ${resource.desired.id}`)
    const comparison = asPlanned(compare(resource.desired, raw, secrets), resource.change, resource.shownAs)
    if (comparison === UNMATCHED) freshness.stale.push(resource)
    else if (comparison === undefined) freshness.done.push(resource)
    else if (sealedAs(resource, fingerprint(comparison.kind, resource.desired.fields, comparison.live)) !== resource.fingerprint) freshness.stale.push(resource)
    else freshness.ready.push({ planned: resource, comparison })
  }
  return freshness
}

/**
 * The comparison narrowed to the fields the plan shows (undefined when none of them differs any
 * more): a request carries only what was shown and confirmed. The fresh comparison may find more
 * (a secret "not yet tracked" when the secrets state is not where the plan read it, as in a CI job
 * without the cached state); those wait for the next plan.
 */
function asPlanned(comparison: Comparison, change: ResourceChange, shownAs: (path: string) => string = (path) => maskedKeys(path)): Comparison | undefined | typeof UNMATCHED {
  const shownCount = counts(change.fields.map((field) => shownAs(field.path)))
  // A key the plan masked for holding a secret of the run that this run does not know (one of a
  // resource the saved plan leaves out, as nothing changes in it) is matched in its masked form
  // when its own form is none of the plan's. The fingerprint, checked after, still finds any
  // change on the service.
  const freshPaths = comparison.fields.map((field) => {
    const path = shownAs(field.path)
    if (shownCount.has(path)) return path
    const masked = maskedKeys(path, () => true)
    return shownCount.has(masked) ? masked : path
  })
  const freshCount = counts(freshPaths)
  // Fields under one masked name (two keys holding secrets) are told apart by none: all of them
  // or none are the plan's; as many shown as found is all of them, any other count cannot be matched.
  for (const [path, shown] of shownCount) if (freshCount.has(path) && freshCount.get(path) !== shown) return UNMATCHED
  const fields = comparison.fields.filter((_, i) => shownCount.has(freshPaths[i]!))
  // A field the plan shows that the fresh read does not find, beside one it finds that the plan does
  // not show: the two may be one field under two names, so neither "done" nor a narrowed request
  // can be trusted: stale.
  if (fields.length < comparison.fields.length && [...shownCount.keys()].some((path) => !freshCount.has(path))) return UNMATCHED
  if (fields.length === 0) return undefined
  if (fields.length === comparison.fields.length) return comparison
  const units = comparison.units.filter((unit) => fields.some((field) => sendsWith(unit, field.path)))
  const { kind, desired, raw, live, hiddenSecrets } = comparison
  return { kind, desired, raw, live, fields, units, hiddenSecrets, get fingerprint() { return comparison.fingerprint } }
}

/**
 * A path whose list keys hold a secret, with its keys written `[(sensitive)]`, as one: a key the
 * plan wrote with a variable's value in it (`[X-Origin-(sensitive)]`) is a key from a variable once
 * the saved plan is read again (`[(sensitive)]`). `holds`: whether a text holds a secret of the run
 * the output step leaves in texts (a weak one), masked the same way (a saved plan's paths are
 * written so, saved-plan.ts). Fields that end up under one path are matched as a group (asPlanned).
 */
export function maskedKeys(path: string, holds?: (text: string) => boolean): string {
  const first = path.indexOf('[')
  const last = path.lastIndexOf(']')
  if (first < 0 || last < first) return path
  // The keys, from the first `[` to the last `]` (a member's own name, `form_login`, is no key).
  const keys = path.slice(first + 1, last)
  if (!(keys.includes(SENSITIVE) || holds?.(keys) === true)) return path
  // Every key of the path as one: a key may hold brackets of its own (`X-].abc12`), so where one ends is not sure.
  return `${path.slice(0, first)}[${SENSITIVE}]${path.slice(last + 1)}`
}

/** How many times each text is in the list. */
function counts(texts: readonly string[]): Map<string, number> {
  const out = new Map<string, number>()
  for (const text of texts) out.set(text, (out.get(text) ?? 0) + 1)
  return out
}

/** asPlanned's answer when the plan's fields and a fresh read's cannot be matched. */
const UNMATCHED = Symbol('unmatched')

/** Whether a field (display path, `site.form_login[password].value`) is sent by a request's unit (a rule path: itself, its list or its object). */
function sendsWith(unit: string, path: string): boolean {
  // The unit's members in turn, each maybe followed by a list key in brackets (a key may hold a `]`).
  const below = new RegExp(`^${unit.split('.').map((member) => member.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('(?:\\[.*\\])?\\.')}(?:\\[.*\\])?(?:\\.|$)`)
  return below.test(path) || unit.startsWith(`${path.replace(/\[[^\]]*\]/g, '')}.`)
}

const sealedAs = (resource: PlannedResource, fingerprint: string): string => (resource.fingerprintKey === undefined ? fingerprint : sealFingerprint(fingerprint, resource.fingerprintKey))

const named = (resources: readonly PlannedResource[], created = false) =>
  resources
    .map((r) =>
      r.desired.id === '' && r.desired.naturalKey
        ? `${r.desired.kind} to create ${JSON.stringify(r.desired.naturalKey.value)} (${created ? 'created already, as declared' : 'a target with this URL now exists'})`
        : `${r.desired.kind} ${r.desired.id}`,
    )
    .join(', ')

/** Why nothing was sent, when the fresh read refuses the plan (undefined when it may go ahead). */
/**
 * When the fresh read was made: before a saved plan is applied, after a confirmation, or (`waited`)
 * after waiting for another apply of the configuration that held the creation lock while it sent.
 */
export type ReadWhen = 'saved' | 'confirmed' | 'waited'

/** When a change on the service was found, after a confirmation or a wait: the refusals' words. */
const meanwhileOf = (when: 'confirmed' | 'waited'): string =>
  when === 'confirmed' ? 'while the plan waited for confirmation' : 'while this apply waited for another apply of the configuration, which was creating targets'

export function freshnessProblem(freshness: Freshness, when: ReadWhen): string | undefined {
  if (freshness.stale.length === 0) return undefined
  if (when === 'saved') return `the saved plan is stale: ${named(freshness.stale)} changed on the service since it was made; nothing was sent. Run scansync plan --out again.`
  const meanwhile = meanwhileOf(when)
  return `${named(freshness.stale)} changed on the service ${meanwhile}; nothing was sent. Run scansync apply again to see the new plan.`
}

/**
 * Why nothing was sent, when the fresh read found a planned resource gone (`read`: the read's own
 * words, naming it): the plan no longer says what would happen, as for one changed since.
 */
export function goneProblem(read: string, when: ReadWhen): string {
  if (when === 'saved') return `${read}\nthe saved plan is stale: a resource it changes is gone from the service (deleted since the plan was made, or the token is another account's); nothing was sent. Run scansync plan --out again.`
  const meanwhile = meanwhileOf(when)
  return `${read}\na resource the plan changes is gone from the service ${meanwhile}; nothing was sent. Run scansync apply again to see the new plan.`
}

/**
 * Why nothing was sent, when a name whose id a request carries means another id now, none or
 * several (`lines`: each at its YAML line, names-again.ts): the plan no longer says what would
 * happen, as for a resource changed since.
 */
export function namesProblem(lines: readonly string[], when: ReadWhen): string {
  const what = lines.length === 1 ? 'what this name refers to' : 'what these names refer to'
  if (when === 'saved') return `${lines.join('\n')}\nthe saved plan is stale: ${what} changed on the service since it was made; nothing was sent. Run scansync plan --out again.`
  const meanwhile = meanwhileOf(when)
  return `${lines.join('\n')}\n${what} changed on the service ${meanwhile}; nothing was sent. Run scansync apply again to see the new plan.`
}

/** The words for resources found already as planned. */
export function doneNote(freshness: Freshness, when: ReadWhen): string | undefined {
  if (freshness.done.length === 0) return undefined
  if (freshness.ready.length === 0 && when === 'saved') {
    return 'The saved plan was already applied: every field it changes is at its planned value; nothing was sent.'
  }
  return `Already as planned, not sent again: ${named(freshness.done, true)}.`
}

/** The plan, without the resources found already as planned. */
export function planOfReady(plan: Plan, ready: readonly Ready[]): Plan {
  const keep = new Set(ready.map((r) => plannedKey(r.planned.desired)))
  const changes = plan.changes.filter((change) => keep.has(plannedKey(change)))
  const create = changes.filter((change) => change.action === 'create').length
  return { changes, summary: { ...(create > 0 ? { create } : {}), change: changes.length - create, unchanged: plan.summary.unchanged + plan.changes.length - changes.length } }
}
