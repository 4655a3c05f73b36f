import type { DesiredResource, JsonObject } from '../core/types.js'
import { ScansyncError } from '../core/errors.js'
import { KINDS } from '../resources/index.js'
import type { ResourceKind } from '../resources/kind.js'
import { getPath, isObject } from '../core/json.js'
import type { SecretContext } from '../secrets/state.js'
import { canonicalJson, sha256 } from './canonical.js'
import { diffResource, type HiddenSecret } from './diff.js'
import { compareChanges, FieldChange, Plan, ResourceChange, SENSITIVE } from './model.js'
import { declaredSecrets, liveSecretGroups, nameHoldsSecret } from '../secrets/redact.js'
import { holdsUrlPassword } from '../schema/sensitivity.js'
import { literalTexts } from './literal-texts.js'
import { declaredForRules } from './after-apply.js'
import { namesRecordedSecret, settleReferences } from '../resources/references.js'

/** One declared resource next to its live state, with what differs. */
export interface Comparison {
  kind: ResourceKind
  desired: DesiredResource
  /** The live resource as the service answered it. */
  raw: JsonObject
  /** The live resource in the YAML's shape. */
  live: JsonObject
  fields: FieldChange[]
  units: string[]
  hiddenSecrets: HiddenSecret[]
  /** Whether a live value is one the secrets state records as applied to the resource (SecretContext.known): a name heading it is then not shown. */
  known?: (value: string) => boolean
  /** SHA-256 of the live values of the managed fields (what a saved plan was computed from); computed on first use. */
  readonly fingerprint: string
}

export interface PlanResult {
  plan: Plan
  /** The comparisons of the resources that change, in plan order. */
  changed: Comparison[]
}

export const liveKey = (kind: string, id: string) => `${kind}/${id}`

/** The plan: pure, from declared resources and their live state. */
export function buildPlan(desired: DesiredResource[], live: ReadonlyMap<string, JsonObject>, secrets: SecretContext): PlanResult {
  const changed: Comparison[] = []
  for (const resource of desired) {
    const raw = live.get(liveKey(resource.kind, resource.id))
    if (!raw) throw new Error(`internal: no live state for ${resource.kind} ${resource.id}`)
    const comparison = compare(resource, raw, secrets)
    if (comparison.fields.length > 0) changed.push(comparison)
  }
  return assemblePlan(desired.length, changed, secrets.holds)
}

/**
 * The plan from the comparisons that found a difference, out of `declared` resources. `holds`:
 * whether a text holds a secret of the run (SecretContext.holds), for the names that head them.
 */
export function assemblePlan(declared: number, changed: Comparison[], holds?: (text: string) => boolean): PlanResult {
  const sorted = [...changed].sort((a, b) => compareChanges(a.desired, b.desired))
  const changes = sorted.map((comparison) => toChange(comparison, holds))
  return { plan: { changes, summary: { change: changes.length, unchanged: declared - changes.length } }, changed: sorted }
}

export function compare(desired: DesiredResource, raw: JsonObject, secrets: SecretContext): Comparison {
  try {
    return compareUnguarded(desired, raw, secrets)
  } catch (error) {
    throw tooDeep(error, desired.kind, desired.id !== '' ? desired.id : JSON.stringify(desired.naturalKey?.value ?? ''))
  }
}

/**
 * The service's answers are read tolerantly (a list's items may be anything) and the comparison
 * recurses: an answer nested thousands of levels deep (a hostile one) overflows the stack. Caught
 * here, in the one comparison every command goes through (a plan, a saved plan's fresh read before
 * apply --plan sends, a write's answer), where it costs nothing on any other answer; caught only in
 * the plan's loop, apply --plan still said "unexpected failure … please report it". The rules'
 * after-apply shape is built from every value a rule reads, compared or not (policies.ts): it
 * overflows alike and is refused in the same words.
 */
export function tooDeep(error: unknown, kind: string, name: string): unknown {
  if (!(error instanceof RangeError) || !/call stack/i.test(error.message)) return error
  return new ScansyncError(`${kind} ${name}: the service's answer holds a value nested too deep to compare (thousands of levels); it was not used`)
}

function compareUnguarded(desired: DesiredResource, raw: JsonObject, secrets: SecretContext): Comparison {
  const kind = KINDS[desired.kind]
  const live = kind.project(raw)
  // A reference answered by name alone is compared as the declared id the run's names give it; the
  // live form (fingerprints, requests) keeps it as answered.
  const { fields, units, hiddenSecrets } = diffResource(kind, desired, settleReferences(kind, live, desired), secrets)
  if (fields.length > 0) maskQuotedSecrets(fields, kind, desired, live, secrets)
  const compared = new Compared(kind, desired, raw, live, fields, units, hiddenSecrets)
  if (secrets.known) compared.known = (value) => secrets.known!(desired.kind, desired.id, value)
  return compared
}

/**
 * A change whose value holds a secret is shown as (sensitive) whole: a secret the live resource
 * holds in clear (a description quoting its own login's password), one of the run that the
 * output step would not hide (too short or too common to replace without revealing it), or a URL
 * with a password in it. Only resources that change are looked through. A text the YAML writes as
 * it is holds a live URL's password only by chance, most likely (a staging site's `staging` in
 * `Shop (staging)`): that one is shown as written, as the name heading the resource is.
 */
function maskQuotedSecrets(fields: FieldChange[], kind: ResourceKind, desired: DesiredResource, live: JsonObject, secrets: SecretContext): void {
  let held: { clear: string[]; urls: string[] } | undefined
  let written: Set<string> | undefined
  const holds = (value: unknown, declared: boolean): boolean => {
    if (value === undefined || value === null || typeof value === 'boolean' || typeof value === 'number') return false
    if (typeof value === 'string' && holdsUrlPassword(value)) return true
    held ??= liveSecretGroups(kind, live)
    if (held.clear.length === 0 && held.urls.length === 0 && secrets.holds === undefined && typeof value === 'string') return false
    const text = typeof value === 'string' ? value : JSON.stringify(value)
    if (secrets.holds?.(text) === true || holdsUrlPassword(text) || held.clear.some((secret) => text.includes(secret))) return true
    if (held.urls.length === 0 || (declared && typeof value === 'string' && (written ??= literalTexts(declaredForRules(desired.fields, desired.templates))).has(value))) return false
    return held.urls.some((secret) => text.includes(secret))
  }
  for (const field of fields) {
    if (field.sensitive || !(holds(field.before, false) || holds(field.after, true) || namesRecordedSecret(kind, field.path, field.before, desired, secrets.known))) continue
    field.sensitive = true
    field.before = SENSITIVE
    field.after = SENSITIVE
  }
}

/** A class rather than an object literal with a getter: one is made for every resource a plan reads. */
class Compared implements Comparison {
  #fingerprint: string | undefined
  known?: (value: string) => boolean

  constructor(
    readonly kind: ResourceKind,
    readonly desired: DesiredResource,
    readonly raw: JsonObject,
    readonly live: JsonObject,
    readonly fields: FieldChange[],
    readonly units: string[],
    readonly hiddenSecrets: HiddenSecret[],
  ) {}

  // Only saved plans need it, and only for the resources that change.
  get fingerprint(): string {
    return (this.#fingerprint ??= fingerprint(this.kind, this.desired.fields, this.live))
  }
}

function toChange(comparison: Comparison, holds: ((text: string) => boolean) | undefined): ResourceChange {
  const { kind, desired, live, fields } = comparison
  return {
    kind: kind.name,
    id: desired.id,
    // A name applied from a variable that the YAML no longer declares (the live one heads it) is not shown either.
    name: displayNameOf(kind, desired, live, comparison.known ? (text) => holds?.(text) === true || comparison.known!(text) : holds),
    action: 'update',
    method: kind.method,
    path: kind.itemPath(desired.id),
    fields,
    source: desired.source,
  }
}

/**
 * A name for people, or SENSITIVE (the resource is then shown by its id) when it came from a
 * variable, holds a secret of the run (`holds`: a weak one too, which the output step would leave
 * in the text), or holds a secret the live resource holds in clear: its URL's password counts only
 * in a name the YAML does not write (nameHoldsSecret).
 */
export function displayNameOf(kind: ResourceKind, desired: DesiredResource, live: JsonObject, holds?: (text: string) => boolean): string | null {
  const name = kind.displayName(desired.fields, live)
  if (name === null) return name
  if (holds?.(name) || nameHoldsSecret(kind, live, name, { declared: kind.displayName(desired.fields, undefined) === name })) return SENSITIVE
  if (desired.templates.size === 0) return name
  return declaredSecrets(desired).some((secret) => secret.value === name) ? SENSITIVE : name
}

/**
 * The live values at the places the YAML declares: objects member by member, lists whole (a list
 * keyed by a member, item by item as declared). A list the kind compares as a set is taken in a
 * canonical order, and a value the kind normalizes (a URL, a time, a nullable text) in its
 * normalized form, as the comparison takes them: a service that lists the same set in another
 * order, or rewrites a value only in form (`HTTPS://SHOP.EXAMPLE.COM:443`), does not make a saved
 * plan stale.
 */
export function managedLiveValues(declared: JsonObject, live: JsonObject, rules: ResourceKind['rules'] = {}, prefix = ''): JsonObject {
  const out: JsonObject = {}
  for (const key of Object.keys(declared)) {
    const path = prefix ? `${prefix}.${key}` : key
    const value = getPath(live, [key])
    const rule = rules[path]
    if (isObject(declared[key]) && isObject(value)) out[key] = managedLiveValues(declared[key] as JsonObject, value, rules, path)
    else if (rule?.type === 'keyed' && Array.isArray(value) && Array.isArray(declared[key])) out[key] = keyedManaged(declared[key] as unknown[], value, rule.key, rules, path)
    else if (rule?.type === 'set' && Array.isArray(value)) out[key] = value.map((item) => canonicalJson(rule.normalize ? rule.normalize(item) : item)).sort()
    else out[key] = (rule?.type === 'scalar' && rule.normalize && value !== undefined ? (rule.normalize(value) as JsonObject[string]) : value) ?? null
  }
  return out
}

/**
 * A list keyed by a member (headers by name, labels by name), as far as the YAML declares it: each
 * live item with the members its declared like declares (an item the YAML does not declare, with
 * its key alone), in a canonical order. A hand change to a member no item declares (a header's
 * `allow_testing`, a label's colour where the YAML names the label only) is kept, not stale.
 */
function keyedManaged(declared: readonly unknown[], live: readonly unknown[], key: string, rules: ResourceKind['rules'], path: string): string[] {
  const declaredByKey = new Map<string, JsonObject>()
  for (const item of declared) if (isObject(item) && item[key] !== undefined) declaredByKey.set(String(item[key]), item)
  return live
    .map((item) => {
      if (!isObject(item)) return canonicalJson(item)
      const like = declaredByKey.get(String(item[key]))
      const managed: JsonObject = {}
      for (const member of like ? Object.keys(like) : [key]) {
        if (!Object.hasOwn(item, member)) continue
        // A member compared through a normalizer (a label's colour) counts as the comparison reads it.
        const rule = rules[`${path}.${member}`]
        managed[member] = rule?.type === 'scalar' && rule.normalize ? (rule.normalize(item[member]) as JsonObject[string]) : item[member]!
      }
      return canonicalJson(managed)
    })
    .sort()
}

export const fingerprint = (kind: ResourceKind, declared: JsonObject, live: JsonObject): string =>
  sha256(canonicalJson(managedLiveValues(declared, live, kind.rules)))
