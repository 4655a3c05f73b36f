import type { DesiredResource, JsonObject } from '../core/types.js'
import { isObject } from '../core/json.js'
import { comparableUrl } from '../core/url.js'
import { KINDS } from '../resources/index.js'
import type { ResourceKind } from '../resources/kind.js'
import { declaredSecrets } from '../secrets/redact.js'
import { holdsUrlPassword } from '../schema/sensitivity.js'
import { defaultsFor } from '../schema/defaults.js'
import { schemaDocuments } from '../schema/files.js'
import { assemblePlan, displayNameOf, type Comparison, type PlanResult } from './build-plan.js'
import { canonicalJson, sha256 } from './canonical.js'
import { FieldChange, ResourceChange, SENSITIVE } from './model.js'

/*
 * Creation (design.md, Semantics 1): a target declared without id that no live target has the URL
 * of is created with POST to the kind's list path, carrying every declared field. Its plan entry
 * shows each declared field (the service has none of them yet).
 */

/** What a creation's fingerprint stands on: no live resource. A saved creation is stale when one with its key appeared. */
export const ABSENT_FINGERPRINT = sha256(canonicalJson({ absent: true }))

/** A resource to create, as the plan's other comparisons: nothing live, every declared field to send. */
export function creationComparison(desired: DesiredResource, holds?: (text: string) => boolean): Comparison {
  const kind = KINDS[desired.kind]
  return {
    kind,
    desired,
    raw: {},
    live: kind.project({}),
    fields: creationFields(desired, holds),
    units: Object.keys(desired.fields),
    hiddenSecrets: [],
    fingerprint: ABSENT_FINGERPRINT,
  }
}

/**
 * A resource to create as the service will hold it once created, in the YAML's shape, before the
 * declared fields are overlaid: the kind's empty shape with the interface document's defaults for
 * what the YAML leaves out. Rules check it so (design.md, "Policies"): a rule about web targets
 * (`type: single`) applies to a target created without `type`, as it will once the target exists.
 */
export function createdLive(desired: DesiredResource): { kind: ResourceKind; live: JsonObject } {
  const kind = KINDS[desired.kind]
  // A list's items get their defaults by the member the kind matches them on (labels, headers: `name`).
  const keyOf = (path: string) => {
    const rule = kind.rules[path]
    return rule?.type === 'keyed' ? rule.key : undefined
  }
  return { kind, live: filledWith(kind.project({}), defaultsFor(schemaDocuments, kind.requestSchema, desired.fields, keyOf)) }
}

/** `base` with the members of `more` it has not, objects filled member by member. */
function filledWith(base: JsonObject, more: JsonObject): JsonObject {
  const out: JsonObject = { ...base }
  for (const [name, value] of Object.entries(more)) {
    const mine = out[name]
    if (isObject(mine) && isObject(value)) out[name] = filledWith(mine, value)
    else if (mine === undefined || mine === null) out[name] = value
  }
  return out
}

/**
 * One line per declared field: objects member by member, lists whole. A field holding a secret
 * shows as (sensitive): one from a variable, a URL with a password, or a text holding a secret of
 * the run (`holds`: a weak one too, which the output step would leave in the text).
 */
export function creationFields(desired: DesiredResource, holds?: (text: string) => boolean): FieldChange[] {
  const secretPlaces = declaredSecrets(desired).map((secret) => secret.segments)
  const holdsSecret = (segments: string[]) => secretPlaces.some((place) => segments.every((segment, i) => place[i] === segment))
  const { rules } = KINDS[desired.kind]
  const fields: FieldChange[] = []
  const visit = (value: unknown, segments: string[]) => {
    // A reference (scanning_agent: {id}) is one value; other objects show member by member.
    if (isObject(value) && Object.keys(value).length > 0 && rules[segments.join('.')]?.type !== 'reference') {
      for (const [key, member] of Object.entries(value)) visit(member, [...segments, key])
      return
    }
    const text = typeof value === 'string' ? value : value !== null && typeof value === 'object' ? JSON.stringify(value) : undefined
    const sensitive = holdsSecret(segments) || (text !== undefined && (holdsUrlPassword(text) || holds?.(text) === true))
    fields.push({
      path: segments.join('.'),
      before: sensitive ? SENSITIVE : undefined,
      after: sensitive ? SENSITIVE : value,
      sensitive,
      source: desired.locate(segments),
    })
  }
  for (const [key, value] of Object.entries(desired.fields)) visit(value, [key])
  return fields
}

/** The plan entry of a creation: `+ target "Name" (URL)`. */
export function creationChange(comparison: Comparison, holds?: (text: string) => boolean): ResourceChange {
  const { kind, desired, fields } = comparison
  return {
    kind: kind.name,
    id: '',
    name: displayNameOf(kind, desired, {}, holds),
    action: 'create',
    method: 'POST',
    path: kind.listPath,
    ...(desired.naturalKey ? { naturalKey: desired.naturalKey } : {}),
    fields,
    source: desired.source,
  }
}

/** Creations first (by URL), then the updates as assemblePlan orders them; `summary.create` counts the creations. */
export function assembleWithCreations(declared: number, changed: Comparison[], creations: readonly DesiredResource[], holds?: (text: string) => boolean): PlanResult {
  const updates = assemblePlan(declared - creations.length, changed, holds)
  if (creations.length === 0) return updates
  // By the URL's characters, not the locale's collation (Danish puts "aa" after "z"): the same plan on every machine.
  const created = [...creations].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0)).map((desired) => creationComparison(desired, holds))
  const { plan } = updates
  return {
    plan: { changes: [...created.map((comparison) => creationChange(comparison, holds)), ...plan.changes], summary: { create: created.length, change: plan.summary.change, unchanged: plan.summary.unchanged } },
    changed: [...created, ...updates.changed],
  }
}

const keyOf = (resource: DesiredResource) => (resource.naturalKey ? comparableUrl(resource.naturalKey.value) : '')
