import equal from 'fast-deep-equal'
import type { DesiredResource, JsonObject } from '../core/types.js'
import type { FieldRule, ResourceKind } from '../resources/kind.js'
import { idOf, nullableList } from '../resources/normalize.js'
import { isObject } from '../core/json.js'
import { isObfuscated, type SecretContext } from '../secrets/state.js'
import { FieldChange, SecretReason, SENSITIVE } from './model.js'

export interface ResourceDiff {
  fields: FieldChange[]
  /** The places whose value a request must send (a changed field's unit: itself, its list, or its whole object). */
  units: string[]
  /** Every sensitive field the service answered obfuscated, in sync or not (for the secrets state). */
  hiddenSecrets: HiddenSecret[]
}

export interface HiddenSecret {
  /** Display path, the key of the secrets state (`site.headers[Auth].value`). */
  path: string
  /** Path without list keys, to match a request's units. */
  rulePath: string
  declared: string
  live: string
}

const identity = (value: unknown) => value

/** A sortable text for a set member. */
const sortKey = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value))
const sortedSet = (values: unknown[]) => {
  const unique = new Map(values.map((value) => [sortKey(value), value]))
  return [...unique.keys()].sort().map((key) => unique.get(key))
}

/**
 * Compares the fields a resource declares with its live form (as the kind projects it), by the
 * kind's rules. Pure: no I/O. Fields the YAML leaves out are not looked at.
 */
export function diffResource(kind: ResourceKind, desired: DesiredResource, live: JsonObject, secrets: SecretContext): ResourceDiff {
  const fields: FieldChange[] = []
  const units = new Set<string>()
  const hiddenSecrets: HiddenSecret[] = []

  const ruleOf = (rulePath: string, declared: unknown): FieldRule =>
    kind.rules[rulePath] ?? (isObject(declared) ? { type: 'object' } : { type: 'scalar' })

  const change = (display: string, index: string, before: unknown, after: unknown, unit: string, sensitive = false, reason?: SecretReason) => {
    const field: FieldChange = { path: display, before: sensitive ? SENSITIVE : before, after: sensitive ? SENSITIVE : after, sensitive }
    if (reason) field.reason = reason
    field.source = desired.locate(indexSegments(index))
    fields.push(field)
    units.add(unit)
  }

  const isSensitive = (rulePath: string, key: string, index: string, current: unknown, parentDeclared?: JsonObject, parentLive?: unknown): boolean =>
    desired.templates.has(index) ||
    kind.alwaysSensitive.includes(rulePath) ||
    parentDeclared?.[`${key}_is_sensitive`] === true ||
    (isObject(parentLive) && parentLive[`${key}_is_sensitive`] === true) ||
    isObfuscated(current)

  /** Masks an item's sensitive members for display. */
  const masked = (item: JsonObject, index: string): JsonObject =>
    Object.fromEntries(
      Object.entries(item).map(([key, value]) => [key, isSensitive('', key, `${index}.${key}`, value, item, item) ? SENSITIVE : value]),
    )

  const visit = (rulePath: string, display: string, index: string, key: string, declared: unknown, current: unknown, parentDeclared: JsonObject | undefined, parentLive: unknown, inheritedUnit: string | undefined): void => {
    const rule = ruleOf(rulePath, declared)
    const unit = inheritedUnit ?? (rule.type === 'object' && !rule.sendWhole ? undefined : rulePath)

    switch (rule.type) {
      case 'object': {
        if (!isObject(declared)) return leaf(rulePath, display, index, key, declared, current, parentDeclared, parentLive, unit ?? rulePath, identity)
        const liveObject = isObject(current) ? current : {}
        for (const member of Object.keys(declared)) {
          visit(`${rulePath}.${member}`, `${display}.${member}`, `${index}.${member}`, member, declared[member], liveObject[member], declared, current, unit)
        }
        return
      }
      case 'reference': {
        const wanted = declared === null || declared === undefined ? null : idOf(declared)
        const actual = current === null || current === undefined ? null : idOf(current)
        if (wanted !== actual) change(display, index, actual === null ? null : { id: actual }, wanted === null ? null : { id: wanted }, unit!)
        return
      }
      case 'set': {
        const normalize = rule.normalize ?? identity
        const wanted = sortedSet(nullableList(declared).map(normalize))
        const actual = sortedSet(nullableList(current).map(normalize))
        if (!equal(wanted, actual)) change(display, index, actual, wanted, unit!)
        return
      }
      case 'keyed':
        return keyed(rule.key, rule.display, rulePath, display, index, nullableList(declared) as JsonObject[], nullableList(current).filter(isObject), unit!)
      case 'scalar':
        return leaf(rulePath, display, index, key, declared, current, parentDeclared, parentLive, unit!, rule.normalize ?? identity)
    }
  }

  const leaf = (rulePath: string, display: string, index: string, key: string, declared: unknown, current: unknown, parentDeclared: JsonObject | undefined, parentLive: unknown, unit: string, normalize: (v: unknown) => unknown): void => {
    const sensitive = isSensitive(rulePath, key, index, current, parentDeclared, parentLive)
    if (sensitive && isObfuscated(current) && typeof declared === 'string') {
      hiddenSecrets.push({ path: display, rulePath, declared, live: current })
      const reason = secretReason(desired, display, declared, current, secrets)
      if (reason) change(display, index, undefined, undefined, unit, true, reason)
      return
    }
    // Normalizers are pure: the same value on both sides is no change (and parses no URL).
    if (declared === current) return
    const before = normalize(current)
    const after = normalize(declared)
    if (!equal(before, after)) change(display, index, before, after, unit, sensitive)
  }

  const keyed = (keyName: string, mode: 'whole' | 'items', rulePath: string, display: string, index: string, declared: JsonObject[], current: JsonObject[], unit: string): void => {
    const liveByKey = new Map(current.map((item) => [String(item[keyName]), item]))
    const declaredKeys = new Set(declared.map((item) => String(item[keyName])))
    // A key the service holds more than once is a difference: the YAML declares it once.
    const liveCount = new Map<string, number>()
    for (const item of current) liveCount.set(String(item[keyName]), (liveCount.get(String(item[keyName])) ?? 0) + 1)

    if (mode === 'whole') {
      const differs =
        declaredKeys.size !== liveByKey.size ||
        current.length !== liveByKey.size ||
        declared.some((item) => {
          const existing = liveByKey.get(String(item[keyName]))
          if (!existing) return true
          return Object.keys(item).some((member) => {
            if (member === keyName) return false
            const normalize = (kind.rules[`${rulePath}.${member}`] as { normalize?: (v: unknown) => unknown } | undefined)?.normalize ?? identity
            return !equal(normalize(item[member]), normalize(existing[member]))
          })
        })
      if (!differs) return
      const declaredByKey = new Map(declared.map((item) => [String(item[keyName]), item]))
      const shown = (item: JsonObject) => {
        const counterpart = declaredByKey.get(String(item[keyName]))
        const members = counterpart ? Object.keys(counterpart) : [keyName]
        return members.length === 1 ? item[keyName] : Object.fromEntries(members.map((m) => [m, item[m] ?? null]))
      }
      const sortByKey = (items: JsonObject[]) => [...items].sort((a, b) => (String(a[keyName]) < String(b[keyName]) ? -1 : 1))
      change(display, index, sortByKey(current).map(shown), sortByKey(declared).map(shown), unit)
      return
    }

    declared.forEach((item, i) => {
      const itemKey = String(item[keyName])
      const itemDisplay = `${display}[${itemKey}]`
      const itemIndex = `${index}[${i}]`
      const existing = liveByKey.get(itemKey)
      if (!existing) {
        change(itemDisplay, itemIndex, undefined, masked(item, itemIndex), unit)
        return
      }
      if ((liveCount.get(itemKey) ?? 0) > 1) {
        const copies = current.filter((other) => String(other[keyName]) === itemKey).map((other) => masked(other, '\0'))
        change(itemDisplay, itemIndex, copies, masked(item, itemIndex), unit)
        return
      }
      for (const member of Object.keys(item)) {
        visit(`${rulePath}.${member}`, `${itemDisplay}.${member}`, `${itemIndex}.${member}`, member, item[member], existing[member], item, existing, unit)
      }
    })
    for (const [itemKey, item] of liveByKey) {
      if (!declaredKeys.has(itemKey)) change(`${display}[${itemKey}]`, index, masked(item, '\0'), undefined, unit)
    }
  }

  for (const key of Object.keys(desired.fields)) {
    visit(key, key, key, key, desired.fields[key], live[key], desired.fields, live, undefined)
  }
  return { fields, units: [...units].sort(), hiddenSecrets }
}

function secretReason(desired: DesiredResource, path: string, declared: string, current: string, secrets: SecretContext): SecretReason | undefined {
  const entry = secrets.entry(desired.kind, desired.id, path)
  if (!entry) return 'not yet tracked'
  // Recorded under another key: it cannot be checked, which is neither a change nor drift.
  if (secrets.foreignKey) return undefined
  if (entry.hmac !== secrets.hmac(declared)) return 'changed in YAML'
  if (entry.live !== current) return 'changed on the service'
  return undefined
}

/** `site.headers[0].value` → ['site', 'headers', 0, 'value'] */
function indexSegments(index: string): Array<string | number> {
  const segments: Array<string | number> = []
  for (const part of index.split('.')) {
    const match = /^([^[]*)((?:\[\d+\])*)$/.exec(part)
    if (!match) {
      segments.push(part)
      continue
    }
    if (match[1]) segments.push(match[1])
    for (const n of match[2].matchAll(/\[(\d+)\]/g)) segments.push(Number(n[1]))
  }
  return segments
}
