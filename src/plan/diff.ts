import { createRequire } from 'node:module'
import type { DesiredResource, JsonObject } from '../core/types.js'
import type { FieldRule, ResourceKind } from '../resources/kind.js'
import type { Normalizer } from '../resources/normalize.js'
import { idOf, nullableList } from '../resources/normalize.js'
import { isObject } from '../core/json.js'
import { isObfuscated, isSensitive } from '../schema/sensitivity.js'
import { HIDDEN_KEY_LENGTH, type SecretContext } from '../secrets/state.js'
import { FieldChange, SecretReason, SENSITIVE } from './model.js'
import { declaredSegments, displayPath, itemOf, lastMember, memberOf, rulePath, statePath, yamlPlace, type FieldPath, type ItemStep } from './path.js'

// CommonJS: required, so that Node does not first scan its source for exports as it does for an import.
const equal = createRequire(import.meta.url)('fast-deep-equal') as typeof import('fast-deep-equal')

export interface ResourceDiff {
  fields: FieldChange[]
  /** The places whose value a request must send (a changed field's unit: itself, its list, or its whole object). */
  units: string[]
  /** Every sensitive field the service answered obfuscated, in sync or not (for the secrets state). */
  hiddenSecrets: HiddenSecret[]
}

export interface HiddenSecret {
  /** Display path (`site.headers[Auth].value`). */
  path: string
  /** The key of the secrets state: the display path, a key from a variable as its hash (statePath). */
  stateKey: string
  /**
   * The other forms the state may hold it under (its list keys named, or hashed, as an earlier
   * run wrote them): recording it replaces those, so that an older record never answers for it.
   */
  otherKeys: readonly string[]
  /** Path without list keys, to match a request's units. */
  rulePath: string
  declared: string
  live: string
  /** Why it is planned (FieldChange.reason); none when the secrets state vouches for it. */
  reason?: SecretReason
}

/** What a comparison found at one place, before it is put in the plan's terms. */
export type Finding = ChangeFinding | HiddenFinding

export interface ChangeFinding {
  type: 'change'
  path: FieldPath
  /** Already masked where a member is sensitive; the whole value is masked later when `sensitive`. */
  before: unknown
  after: unknown
  /** The send unit (a rule path). */
  unit: string
  sensitive: boolean
  reason?: SecretReason
  /** before and after are sets (shown as the items added and removed). */
  set?: boolean
}

/** A sensitive value the service answered obfuscated (recorded in the secrets state after an apply). */
export interface HiddenFinding {
  type: 'hidden'
  path: FieldPath
  declared: string
  live: string
  reason?: SecretReason
}

/** What every comparison needs besides the two values. */
export interface DiffContext {
  kind: Pick<ResourceKind, 'rules' | 'sensitiveFields'>
  /** The declared values that came from `${…}`, by their YAML place (`site.headers[0].value`). */
  templates: ReadonlyMap<string, string>
  /** Why a hidden secret is planned, or undefined when the secrets state vouches for it. */
  secretReason(path: FieldPath, declared: string, live: string): SecretReason | undefined
  /** The key of a place in the secrets state (statePath); the display path when not given. */
  stateKey?(path: FieldPath): string
  /** The other keys an earlier run may have recorded the place under (HiddenSecret.otherKeys). */
  otherStateKeys?(path: FieldPath): string[]
  /** Whether a live value is one the secrets state records as applied to the resource (a rotated variable's old value). */
  /** `fromVariable`: the value is at a place the YAML takes from a variable (a list's item, a key, the value itself). */
  known?(value: unknown, fromVariable?: boolean): boolean
}

/** A place being compared: both values, the objects holding them, and the send unit it inherits. */
export interface Place {
  path: FieldPath
  declared: unknown
  live: unknown
  declaredParent?: unknown
  liveParent?: unknown
  /** Set inside an object sent whole or a list: a change anywhere below sends it. */
  unit?: string
  /**
   * The kind's rules at this place's rule path (null: no rule here or below), carried down from
   * the parent so that no rule path is spelt out for a place that holds no difference; worked
   * out from the path when absent.
   */
  rules?: RuleNode | null
}

/** The kind's rules as a tree by member name (list items keep their list's node). */
export interface RuleNode {
  rule?: FieldRule
  members: Map<string, RuleNode>
}

const ruleTrees = new WeakMap<Readonly<Record<string, FieldRule>>, RuleNode>()

/** The kind's rules as a tree, built once per kind. */
export function ruleTree(rules: Readonly<Record<string, FieldRule>>): RuleNode {
  let tree = ruleTrees.get(rules)
  if (tree) return tree
  tree = { members: new Map() }
  for (const [path, rule] of Object.entries(rules)) {
    let node = tree
    for (const member of path.split('.')) {
      let next = node.members.get(member)
      if (!next) node.members.set(member, (next = { members: new Map() }))
      node = next
    }
    node.rule = rule
  }
  ruleTrees.set(rules, tree)
  return tree
}

/** The node of a member below a place's node (null when no rule is there or below; undefined when the parent's is not known). */
const memberRules = (node: RuleNode | null | undefined, member: string): RuleNode | null | undefined =>
  node === undefined ? undefined : (node?.members.get(member) ?? null)

/** A place's rule node: carried by the place, or found from its path. */
function rulesAt(context: DiffContext, place: Place): RuleNode | null {
  if (place.rules !== undefined) return place.rules
  let node: RuleNode | null = ruleTree(context.kind.rules)
  for (const step of place.path) if (typeof step === 'string') node = node?.members.get(step) ?? null
  return node
}

const identity: Normalizer = (value) => value

/** What most comparisons find: shared and frozen, so nothing appends to it by mistake. */
const NONE: Finding[] = Object.freeze([]) as unknown as Finding[]
const NO_DIFF: ResourceDiff = Object.freeze({ fields: Object.freeze([]), units: Object.freeze([]), hiddenSecrets: Object.freeze([]) }) as unknown as ResourceDiff
const EMPTY_OBJECT: JsonObject = Object.freeze({})

/**
 * The same scalar on both sides, not an obfuscated one: whatever the place's rule, nothing to
 * find there (a scalar where a list or an object is expected reads as empty on both sides). Most
 * places of a plan are this; they are passed over without making a place to compare.
 */
const plainlyEqual = (declared: unknown, live: unknown): boolean =>
  declared === live && (declared === null || typeof declared !== 'object') && !isObfuscated(live)

/**
 * Compares the fields a resource declares with its live form (as the kind projects it), by the
 * kind's rules. Pure: no I/O. Fields the YAML leaves out are not looked at.
 */
function unoptimisedDiffResource(kind: ResourceKind, desired: DesiredResource, live: JsonObject, secrets: SecretContext): ResourceDiff {
  const context = diffContext(kind, desired, secrets)
  const fields = desired.fields
  const tree = ruleTree(kind.rules)
  let findings: Finding[] = NONE
  // Loops, not flatMap: most places compared hold no difference, and each flatMap allocates.
  for (const key in fields) {
    if (plainlyEqual(fields[key], live[key])) continue
    const found = unoptimisedCompareField(context, { path: [key], declared: fields[key], live: live[key], declaredParent: fields, liveParent: live, rules: memberRules(tree, key) })
    if (found.length > 0) findings = findings === NONE ? [...found] : (findings.push(...found), findings)
  }
  return findings === NONE ? NO_DIFF : resourceDiff(findings, desired, context)
}

const hasHiddenKey = (path: FieldPath): boolean => path.some((step) => typeof step === 'object' && step.hiddenKey === true)
const isItemStep = (step: FieldPath[number]): boolean => typeof step === 'object'
const regexEscape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** The path with every list item's key hidden (as from a variable), or every one shown. */
const withKeysHidden = (path: FieldPath, hidden: boolean): FieldPath => path.map((step) => (typeof step === 'object' ? { ...step, hiddenKey: hidden } : step))

export function diffContext(kind: ResourceKind, desired: DesiredResource, secrets: SecretContext): DiffContext {
  const stateKey = (path: FieldPath) => statePath(path, secrets.hmac, secrets.holds)
  const otherForms = (path: FieldPath) => {
    if (!path.some(isItemStep)) return []
    const own = stateKey(path)
    const forms = [statePath(withKeysHidden(path, true), secrets.hmac), statePath(withKeysHidden(path, false), secrets.hmac)].filter((form) => form !== own)
    return forms.length === 2 && forms[0] === forms[1] ? [forms[0]!] : forms
  }
  // A state written with another key hashed a list key with that key: any hash in its place may be
  // the record, which cannot be checked either way (foreignKey), but is no secret "not yet tracked".
  const hashedUnderAnotherKey = (path: FieldPath) => {
    if (!path.some(isItemStep) || !secrets.paths) return undefined
    const pattern = new RegExp(`^${path.map((step, i) => (typeof step === 'object' ? `\\[(?:#[0-9a-f]{${HIDDEN_KEY_LENGTH}}|${regexEscape(String(step.key))})\\]` : `${i === 0 ? '' : '\\.'}${regexEscape(step)}`)).join('')}$`)
    const found = secrets.paths(desired.kind, desired.id).find((recorded) => pattern.test(recorded))
    return found === undefined ? undefined : secrets.entry(desired.kind, desired.id, found)
  }
  return {
    kind,
    templates: desired.templates,
    known: (value, fromVariable) => typeof value === 'string' && secrets.known?.(desired.kind, desired.id, value, fromVariable) === true,
    stateKey,
    otherStateKeys: otherForms,
    secretReason(path, declared, live) {
      // The entry under its path as this run writes it; else under another form of its keys, as
      // an earlier version wrote it (a key holding a secret of the run by its name, or a key that
      // a saved plan wrote as the `${NAME}` it came from by its hash); else, for a state written
      // before keys from variables were hashed, at its display path.
      const entry =
        secrets.entry(desired.kind, desired.id, stateKey(path)) ??
        otherForms(path).map((form) => secrets.entry(desired.kind, desired.id, form)).find(Boolean) ??
        (hasHiddenKey(path) ? secrets.entry(desired.kind, desired.id, displayPath(path)) : undefined) ??
        (secrets.foreignKey ? hashedUnderAnotherKey(path) : undefined)
      if (!entry) {
        secrets.untracked?.(desired.kind, desired.id, stateKey(path))
        return 'not yet tracked'
      }
      // Recorded under another key: it cannot be checked, which is neither a change nor drift.
      if (secrets.foreignKey) return undefined
      if (entry.hmac !== secrets.hmac(declared)) return 'changed in YAML'
      if (entry.live !== live) return 'changed on the service'
      return undefined
    },
  }
}

/** The findings in the plan's terms: display paths, masked values, YAML positions, send units. */
export function resourceDiff(findings: readonly Finding[], desired: Pick<DesiredResource, 'locate'>, context?: Pick<DiffContext, 'stateKey' | 'otherStateKeys'>): ResourceDiff {
  const fields: FieldChange[] = []
  const units = new Set<string>()
  const hiddenSecrets: HiddenSecret[] = []
  for (const finding of findings) {
    if (finding.type === 'hidden') {
      const path = displayPath(finding.path)
      hiddenSecrets.push({ path, stateKey: context?.stateKey?.(finding.path) ?? path, otherKeys: context?.otherStateKeys?.(finding.path) ?? [], rulePath: rulePath(finding.path), declared: finding.declared, live: finding.live, ...(finding.reason ? { reason: finding.reason } : {}) })
      continue
    }
    const { sensitive } = finding
    const field: FieldChange = {
      path: displayPath(finding.path),
      before: sensitive ? SENSITIVE : finding.before,
      after: sensitive ? SENSITIVE : finding.after,
      sensitive,
    }
    if (finding.reason) field.reason = finding.reason
    if (finding.set) field.set = true
    field.source = desired.locate(declaredSegments(finding.path))
    fields.push(field)
    units.add(finding.unit)
  }
  return { fields, units: [...units].sort(), hiddenSecrets }
}

/** The kind's rule for a place, or the default by the declared value's shape. */
export function ruleAt(context: DiffContext, place: Place): FieldRule {
  return context.kind.rules[rulePath(place.path)] ?? (isObject(place.declared) ? OBJECT : SCALAR)
}

const OBJECT: FieldRule = Object.freeze({ type: 'object' })
const SCALAR: FieldRule = Object.freeze({ type: 'scalar' })

/** Whether a rule's changes are sets (their before and after shown as the items added and removed). */
export const showsAsSet = (rule: FieldRule | undefined): boolean => rule?.type === 'set' || (rule?.type === 'keyed' && rule.display === 'whole')

/** Compares one declared place by its rule. */
function unoptimisedCompareField(context: DiffContext, place: Place): Finding[] {
  const rules = rulesAt(context, place)
  const rule = rules?.rule ?? (isObject(place.declared) ? OBJECT : SCALAR)
  // A list or an object sent whole is the unit of everything below it; any other place is its
  // own unit, spelt out only when it holds a change (see `change`).
  const sentWhole = rule.type === 'set' || rule.type === 'keyed' || (rule.type === 'object' && rule.sendWhole === true)
  const here: Place = place.unit === undefined && sentWhole ? { ...place, rules, unit: rulePath(place.path) } : place.rules === rules ? place : { ...place, rules }
  switch (rule.type) {
    case 'object':
      return isObject(here.declared) ? unoptimisedCompareObject(context, here) : unoptimisedCompareScalar(context, here)
    case 'reference':
      return compareReference(context, here)
    case 'set':
      return unoptimisedCompareSet(context, here, rule.normalize)
    case 'keyed':
      return rule.display === 'whole' ? unoptimisedCompareWholeList(context, here, rule.key) : unoptimisedCompareItems(context, here, rule.key)
    case 'scalar':
      return unoptimisedCompareScalar(context, here, rule.normalize)
  }
}

/** Each declared member, against the live object's (a live value that is not an object holds none). */
function unoptimisedCompareObject(context: DiffContext, place: Place): Finding[] {
  const declared = place.declared as JsonObject
  const live = isObject(place.live) ? place.live : EMPTY_OBJECT
  let findings: Finding[] = NONE
  for (const member in declared) {
    if (plainlyEqual(declared[member], live[member])) continue
    const found = unoptimisedCompareField(context, {
      path: memberOf(place.path, member),
      declared: declared[member],
      live: live[member],
      declaredParent: declared,
      liveParent: place.live,
      unit: place.unit,
      rules: memberRules(place.rules, member),
    })
    if (found.length > 0) findings = findings === NONE ? [...found] : (findings.push(...found), findings)
  }
  return findings
}

/**
 * A reference to another resource: compared by id, shown as `{id}` (or null); one the service
 * answered by its name alone (the kind's projection made it `{name}`) is shown so.
 */
export function compareReference(context: DiffContext, place: Place): Finding[] {
  const wanted = place.declared === null || place.declared === undefined ? null : idOf(place.declared)
  const actual = place.live === null || place.live === undefined ? null : idOf(place.live)
  if (wanted === actual) return NONE
  const sensitive = fromVariable(context, place.path) || fromVariable(context, memberOf(place.path, 'id'))
  return [change(place, actual === null ? null : isObject(actual) ? actual : { id: actual }, wanted === null ? null : { id: wanted }, { sensitive })]
}

/** A list of scalars compared as a set; an item from a variable, and its live counterpart, print as (sensitive). */
function unoptimisedCompareSet(context: DiffContext, place: Place, normalize: Normalizer = identity): Finding[] {
  const declared = nullableList(place.declared)
  // The common case, the same items in the same order, needs no sorting.
  if (sameItems(declared, nullableList(place.live), normalize)) return NONE
  const wanted = sortedSet(declared.map(normalize))
  const actual = sortedSet(nullableList(place.live).map(normalize))
  if (equal(wanted, actual)) return NONE
  const hidden = new Set(
    declared.flatMap((item, index) => (fromVariable(context, itemOf(place.path, { index, key: '' })) ? [sortKey(normalize(item))] : [])),
  )
  const mask = (item: unknown) => (hidden.has(sortKey(item)) ? SENSITIVE : item)
  // A live item the state knows as applied from a variable, that the YAML now writes as it is, is
  // shown as the YAML's (else it read as removed, and the literal as added, though it stays).
  const declaredItems = new Set(wanted.map(sortKey))
  return [change(place, actual.map((item) => (!declaredItems.has(sortKey(item)) && isKnown(context, item, hidden.size > 0) ? SENSITIVE : mask(item))), wanted.map(mask), { set: true })]
}

/**
 * A list of objects keyed by a member, shown whole (labels, owners, teams, stack): one change
 * holding both lists, each item as the members the YAML declares for it (or its key alone).
 */
function unoptimisedCompareWholeList(context: DiffContext, place: Place, key: string): Finding[] {
  const declared = nullableList(place.declared).filter(isObject)
  const live = nullableList(place.live).filter(isObject)
  if (!unoptimisedKeyedListsDiffer(context, place.path, key, declared, live, place.rules)) return NONE
  const declaredByKey = new Map(declared.map((item, index) => [String(item[key]), { item, index }]))
  const shown = (item: JsonObject) => {
    const counterpart = declaredByKey.get(String(item[key]))
    const masked = maskEntry(context, place.path, item, counterpart)
    const members = counterpart ? Object.keys(counterpart.item) : [key]
    // A live item the service answered without its key (a team by its name alone) is shown as answered.
    if (members.length === 1) return item[key] === undefined && !counterpart ? masked : masked[key]
    // A live member equal to the declared one through its normalizer (no colour and `color: ""`)
    // is shown as declared, so that an item that does not change is not shown removed and added.
    const declaredItem = counterpart && counterpart.item !== item ? maskEntry(context, place.path, counterpart.item, counterpart) : undefined
    return Object.fromEntries(
      members.map((m) => {
        const value = masked[m] ?? null
        if (!declaredItem) return [m, value]
        const normalize = ((context.kind.rules[rulePath(memberOf(place.path, m))] as { normalize?: Normalizer } | undefined)?.normalize ?? identity)
        return [m, equal(normalize(item[m]), normalize(counterpart!.item[m])) ? (declaredItem[m] ?? null) : value]
      }),
    )
  }
  return [change(place, sortByKey(live, key).map(shown), sortByKey(declared, key).map(shown), { set: true })]
}

/** Whether two keyed lists differ: other keys, a key held twice, or a declared member that differs (normalized). */
function unoptimisedKeyedListsDiffer(
  context: DiffContext,
  path: FieldPath,
  key: string,
  declared: readonly JsonObject[],
  live: readonly JsonObject[],
  /** The list's rule node, when the caller carries it (else found from the path). */
  rules?: RuleNode | null,
): boolean {
  const normalizerOf = (member: string): Normalizer => {
    const rule = (rules !== undefined ? rules?.members.get(member)?.rule : context.kind.rules[rulePath(memberOf(path, member))]) as { normalize?: Normalizer } | undefined
    return rule?.normalize ?? identity
  }
  const membersDiffer = (item: JsonObject, existing: JsonObject) => {
    for (const member in item) {
      if (member === key) continue
      const normalize = normalizerOf(member)
      if (item[member] !== existing[member] && !equal(normalize(item[member]), normalize(existing[member]))) return true
    }
    return false
  }
  // The common case: the same keys in the same order, none twice.
  if (declared.length === live.length && declared.length <= 16) {
    let sameOrder = true
    for (let i = 0; i < declared.length && sameOrder; i++) {
      const itemKey = String(declared[i]![key])
      if (itemKey !== String(live[i]![key])) sameOrder = false
      for (let j = 0; j < i && sameOrder; j++) if (String(declared[j]![key]) === itemKey) sameOrder = false
    }
    if (sameOrder) return declared.some((item, i) => membersDiffer(item, live[i]!))
  }
  const liveByKey = new Map(live.map((item) => [String(item[key]), item]))
  const declaredKeys = new Set(declared.map((item) => String(item[key])))
  if (declaredKeys.size !== liveByKey.size || live.length !== liveByKey.size) return true
  return declared.some((item) => {
    const existing = liveByKey.get(String(item[key]))
    return !existing || membersDiffer(item, existing)
  })
}

/**
 * A list of objects keyed by a member, shown item by item (headers, cookies, form fields): an
 * item added, removed, held twice by the service, or changed member by member.
 */
function unoptimisedCompareItems(context: DiffContext, place: Place, key: string): Finding[] {
  const declared = nullableList(place.declared) as JsonObject[]
  const live = nullableList(place.live).filter(isObject)
  // Each key's live items, in order, found at once for each declared item (the whole list searched
  // for each made a list of 16,000 headers take seconds, 32,000 a quarter of a minute).
  const liveItems = new Map<string, JsonObject[]>()
  for (const item of live) {
    const items = liveItems.get(String(item[key]))
    if (items) items.push(item)
    else liveItems.set(String(item[key]), [item])
  }
  const declaredKeys = new Set(declared.map((item) => String(item[key])))
  const findings = declared.flatMap((item, index) => unoptimisedCompareItem(context, place, key, { item, index }, liveItems))
  const keysFromVariables = declared.some((_, index) => fromVariable(context, memberOf(itemOf(place.path, { index, key: '' }), key)))
  for (const [itemKey, items] of liveItems) {
    if (declaredKeys.has(itemKey)) continue
    // Every copy the service holds goes (the list is sent whole): shown all, as a declared key held twice is.
    const before = items.length > 1 ? items.map((item) => maskEntry(context, place.path, item)) : maskEntry(context, place.path, items[0]!)
    findings.push(change({ ...place, path: itemOf(place.path, { key: itemKey, ...(isKnown(context, itemKey, keysFromVariables) ? { hiddenKey: true } : {}) }) }, before, undefined))
  }
  return findings
}

/** One declared item of a list shown item by item, against the live items with its key (`live`: the list's items by key). */
function unoptimisedCompareItem(context: DiffContext, list: Place, key: string, declared: DeclaredItem, live: ReadonlyMap<string, readonly JsonObject[]>): Finding[] {
  const itemKey = String(declared.item[key])
  const step: ItemStep = { index: declared.index, key: itemKey }
  if (fromVariable(context, memberOf(itemOf(list.path, step), key))) step.hiddenKey = true
  const place: Place = { ...list, path: itemOf(list.path, step) }
  const matches = live.get(itemKey) ?? []
  if (matches.length === 0) return [change(place, undefined, maskEntry(context, list.path, declared.item, declared))]
  if (matches.length > 1) {
    return [change(place, matches.map((copy) => maskEntry(context, list.path, copy, declared)), maskEntry(context, list.path, declared.item, declared))]
  }
  const existing = matches[0]!
  return Object.keys(declared.item).flatMap((member) =>
    unoptimisedCompareField(context, {
      path: memberOf(place.path, member),
      declared: declared.item[member],
      live: existing[member],
      declaredParent: declared.item,
      liveParent: existing,
      unit: list.unit,
      rules: memberRules(list.rules, member),
    }),
  )
}

/** A declared list item and its index in the YAML. */
export interface DeclaredItem {
  item: JsonObject
  index: number
}

/**
 * A scalar (or a value compared whole): normalized on both sides. A sensitive value the service
 * hides is compared through the secrets state instead.
 */
function unoptimisedCompareScalar(context: DiffContext, place: Place, normalize: Normalizer = identity): Finding[] {
  // An obfuscated live value is always sensitive (the one rule says so), so this is the hidden
  // secret case; the sensitivity of other places is asked only when they differ.
  if (isObfuscated(place.live) && typeof place.declared === 'string') return compareHiddenSecret(context, place, place.declared, place.live)
  // Normalizers are pure: the same value on both sides is no change (and parses no URL).
  if (place.declared === place.live) return NONE
  const before = normalize(place.live)
  const after = normalize(place.declared)
  if (equal(before, after)) return NONE
  // The value after is the declared one, as the request sends it (a URL as written, not its
  // comparison form). A declared null removes the value: shown so (as a saved plan shows it), not
  // as the "" or false it compares equal to. The value before is a text as the service holds it
  // (not https://xn--bcher-kva.example/a for a live https://bücher.example/../a); a value it does
  // not hold (null, none) in the form it compares as.
  const shownBefore = typeof place.live === 'string' ? place.live : before
  return [change(place, shownBefore, place.declared === null ? undefined : place.declared, { sensitive: isSensitiveAt(context, place) || isKnown(context, place.live) })]
}

/** A secret the service answers obfuscated: recorded as hidden, and planned when the state cannot vouch for it. */
export function compareHiddenSecret(context: DiffContext, place: Place, declared: string, live: string): Finding[] {
  const hidden: HiddenFinding = { type: 'hidden', path: place.path, declared, live }
  const reason = context.secretReason(place.path, declared, live)
  return reason ? [{ ...hidden, reason }, { ...change(place, undefined, undefined, { sensitive: true }), reason }] : [hidden]
}

/** The one sensitivity rule, asked about a place being compared. */
export function isSensitiveAt(context: DiffContext, place: Place): boolean {
  return isSensitive({
    member: lastMember(place.path),
    rulePath: rulePath(place.path),
    containers: [place.declaredParent, place.liveParent],
    values: [place.live],
    fromVariable: fromVariable(context, place.path),
    sensitiveFields: context.kind.sensitiveFields,
  })
}

/**
 * A list item with its sensitive members as (sensitive). `declared`: the YAML's item with that
 * key (its flags, its name and its values from variables count for the live item too).
 */
export function maskEntry(context: DiffContext, list: FieldPath, entry: JsonObject, declared?: DeclaredItem): JsonObject {
  const yamlItem = declared ? itemOf(list, { index: declared.index, key: '' }) : undefined
  return Object.fromEntries(
    Object.entries(entry).map(([member, value]) => {
      const sensitive = isSensitive({
        member,
        rulePath: rulePath(memberOf(list, member)),
        containers: [entry, declared?.item],
        values: [value],
        fromVariable: yamlItem !== undefined && fromVariable(context, memberOf(yamlItem, member)),
        sensitiveFields: context.kind.sensitiveFields,
      })
      return [member, sensitive || isKnown(context, value) ? SENSITIVE : value]
    }),
  )
}

/** A live value the secrets state knows as applied to the resource (DiffContext.known). */
const isKnown = (context: DiffContext, value: unknown, fromVariable = false): boolean => context.known?.(value, fromVariable) === true

const fromVariable = (context: DiffContext, path: FieldPath): boolean => {
  // Most resources hold no variable: no place to spell out.
  if (context.templates.size === 0) return false
  const place = yamlPlace(path)
  return place !== undefined && context.templates.has(place)
}

const change = (place: Place, before: unknown, after: unknown, options: { sensitive?: boolean; set?: boolean } = {}): ChangeFinding => {
  const finding: ChangeFinding = { type: 'change', path: place.path, before, after, unit: place.unit ?? rulePath(place.path), sensitive: options.sensitive ?? false }
  if (options.set) finding.set = true
  return finding
}

/** Whether two lists hold the same items in the same order, normalized. */
function sameItems(declared: readonly unknown[], live: readonly unknown[], normalize: Normalizer): boolean {
  if (declared.length !== live.length) return false
  for (let i = 0; i < declared.length; i++) {
    if (declared[i] !== live[i] && !equal(normalize(declared[i]), normalize(live[i]))) return false
  }
  return true
}

/** A sortable text for a set member. */
const sortKey = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value))

export function sortedSet(values: readonly unknown[]): unknown[] {
  const unique = new Map(values.map((value) => [sortKey(value), value]))
  return [...unique.keys()].sort().map((key) => unique.get(key))
}

const sortByKey = (items: readonly JsonObject[], key: string) => [...items].sort((a, b) => (String(a[key]) < String(b[key]) ? -1 : 1))

// `unoptimised…`: run once or a few times per resource; V8's optimising compiler leaves them alone (bin/v8-flags.js).
export { unoptimisedDiffResource as diffResource, unoptimisedCompareField as compareField, unoptimisedCompareObject as compareObject, unoptimisedCompareSet as compareSet, unoptimisedCompareWholeList as compareWholeList, unoptimisedKeyedListsDiffer as keyedListsDiffer, unoptimisedCompareItems as compareItems, unoptimisedCompareItem as compareItem, unoptimisedCompareScalar as compareScalar }
