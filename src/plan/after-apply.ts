import { formatPath, type PathSegments } from '../core/diagnostics.js'
import { isObject } from '../core/json.js'
import { SENSITIVE, type JsonObject } from '../core/types.js'
import { holdsUrlPassword, isSensitiveAt, isSensitiveIn } from '../schema/sensitivity.js'
import type { FieldRule, ResourceKind } from '../resources/kind.js'
import type { Reads } from './policy-reads.js'
import { formOf, type FormNode } from './yaml-form.js'

// Functions named `unoptimised…` build the after-apply shapes, once per resource of a plan. V8's
// optimising compiler leaves them alone, as it leaves the rules' validators
// (src/schema/policy-ajv.ts): over a plan's thousands of resources, compiling them cost more CPU
// than the optimised code saved, on cores the plan keeps busy (bin/v8-flags.js, docs/performance.md).

/**
 * A resource as it will be after the apply, in the YAML's shape: the live resource projected by
 * its kind, with the declared fields laid over it (objects member by member; a list the kind keys
 * by a member, labels or teams, item by item on that key, so a label declared without its colour
 * keeps the live colour; any other value replaced whole, as the apply sends it).
 *
 * Live values are in the form the YAML writes them, as `import` writes them (yaml-form.ts): a
 * time `08:00:00` is `08:00`, and a value that means nothing while its switch is off (a web
 * target's `api_scan_settings`) is left out. A value that is not set is left out on either side:
 * null, an empty text and an empty list, which is how the service answers a field with no value,
 * so that a rule saying `required: [blackout_period]` means "is set".
 */
export function afterApply(kind: ResourceKind, id: string, declared: JsonObject, live: JsonObject, reads: Reads = true, options: AfterApplyOptions = {}): JsonObject {
  const root: Root = { declared, live, view: undefined }
  const form = formOf(kind)
  holdsSecretNow = options.holdsSecret
  unchangedNow = options.unchanged === true
  try {
    const shape = reads === true ? unoptimisedOverlay(kind, form, declared, live, '', root) : unoptimisedOverlayRead(kind, declared, live, readMembers(kind, form, reads), root)
    shape.id = id
    return shape
  } finally {
    holdsSecretNow = undefined
    unchangedNow = false
  }
}

export interface AfterApplyOptions {
  /** Whether a text holds a secret of the run: then `(sensitive)` to the rules. */
  holdsSecret?: (text: string) => boolean
  /**
   * The plan found nothing to change in the resource: every declared value equals the live one
   * through the kind's normalizers, so the live one is taken without normalizing both again (a
   * URL parsed twice for each of thousands of resources).
   */
  unchanged?: boolean
}

/** The resource being built has nothing to change (AfterApplyOptions.unchanged). */
let unchangedNow = false

/**
 * Whether a text holds a secret of the run, for the shape being built (afterApply sets it; a
 * shape is built at once, never two at a time): one variable rather than a parameter through
 * every step of the build.
 */
let holdsSecretNow: ((text: string) => boolean) | undefined

/**
 * A text as rules may see it: `(sensitive)` where it is a secret (the one sensitivity rule, asked
 * of the objects holding it: a place the schemas mark sensitive, a password, a member its holder
 * flags, a credential entry's value, an obfuscated value) or holds one of the run. A rule decides
 * whether there is a violation, so one that could read a secret could spell it out a guess at a
 * time; a rule can ask that a secret be set (`required`), never what it is.
 */
function unoptimisedShown(form: FormNode | undefined, key: string, text: string, holder: JsonObject, other: JsonObject | undefined): string {
  const also = other !== undefined && other !== NOTHING_DECLARED
  if (form !== undefined) {
    if (isSensitiveAt(form.sensitivity, holder, text) || (also && isSensitiveAt(form.sensitivity, other, text))) return SENSITIVE
  } else if (isSensitiveIn(holder, key, text) || (also && isSensitiveIn(other, key, text))) return SENSITIVE
  return (holdsSecretNow !== undefined && holdsSecretNow(text)) || holdsUrlPassword(text) ? SENSITIVE : text
}

/**
 * The declared fields as rules may see them: each value that came from a variable is
 * `(sensitive)`. A rule decides what a violation says, and whether there is one: were it to read
 * a secret, a set of rules could spell it out a guess at a time (`pattern: "^.{3}c"`).
 */
export function declaredForRules(fields: JsonObject, templates: ReadonlyMap<string, string>): JsonObject {
  return templates.size === 0 ? fields : (withTemplatesMasked(fields, templates, []) as JsonObject)
}

function withTemplatesMasked(value: unknown, templates: ReadonlyMap<string, string>, path: PathSegments): unknown {
  if (typeof value === 'string') return templates.has(formatPath(path)) ? SENSITIVE : value
  if (Array.isArray(value)) return value.map((item, i) => withTemplatesMasked(item, templates, [...path, i]))
  if (!isObject(value)) return value
  const out: JsonObject = {}
  for (const key of Object.keys(value)) unoptimisedSet(out, key, withTemplatesMasked(value[key], templates, [...path, key]))
  return out
}

/** The resource a build started from, for the switches of `onlyWhile` (read as they will be after the apply). */
interface Root {
  declared: JsonObject
  live: JsonObject
  view: JsonObject | undefined
}

/** Whether the live value at a place means something after the apply: its switch, if it has one, is on. */
function unoptimisedSwitchedOn(node: FormNode | undefined, root: Root | undefined): boolean {
  const onlyWhile = node?.onlyWhile
  if (onlyWhile === undefined || root === undefined) return true
  // The usual case: the YAML declares nothing the switch reads, so it is as it is live.
  const reads = node!.switchReads
  if (reads !== undefined && !unoptimisedDeclaresAny(root.declared, reads)) return onlyWhile(root.live)
  root.view ??= unoptimisedSwitchView(root.declared, root.live)
  return onlyWhile(root.view)
}

function unoptimisedDeclaresAny(declared: JsonObject, members: readonly string[]): boolean {
  for (let i = 0; i < members.length; i++) if (Object.hasOwn(declared, members[i]!)) return true
  return false
}

/**
 * The declared fields over the live ones, objects merged one level down: enough for a switch
 * (`type`, `site.has_otp`). A view that answers each member when asked: a switch reads one or two,
 * and a live target has some hundred (copying them cost more than the rest of its shape).
 */
function unoptimisedSwitchView(declared: JsonObject, live: JsonObject, depth = 0): JsonObject {
  return new Proxy(live, {
    get(target, key) {
      if (typeof key !== 'string' || !Object.hasOwn(declared, key)) return Reflect.get(target, key)
      const mine = declared[key]
      const theirs = Object.hasOwn(target, key) ? target[key] : undefined
      return depth === 0 && isObject(mine) && isObject(theirs) ? unoptimisedSwitchView(mine, theirs, 1) : mine
    },
  })
}

/**
 * A member the rules read, worked out once per kind: its key, its path among the kind's rules,
 * the rule there, its form, and the members read of it (undefined: the whole value). A plan
 * builds thousands of shapes, mostly before V8 has optimised anything: no path is spelt out and
 * no map walked per resource.
 */
interface ReadMember {
  key: string
  path: string
  rule: FieldRule | undefined
  form: FormNode | undefined
  members: ReadMember[] | undefined
}

const readMembersByKind = new WeakMap<ResourceKind, WeakMap<Map<string, Reads>, ReadMember[]>>()

function readMembers(kind: ResourceKind, form: FormNode, reads: Map<string, Reads>): ReadMember[] {
  let byReads = readMembersByKind.get(kind)
  if (!byReads) readMembersByKind.set(kind, (byReads = new WeakMap()))
  let members = byReads.get(reads)
  if (!members) byReads.set(reads, (members = membersOf(kind, form, reads, '')))
  return members
}

function membersOf(kind: ResourceKind, form: FormNode | undefined, reads: Map<string, Reads>, prefix: string): ReadMember[] {
  return [...reads].map(([key, read]) => {
    const path = prefix ? `${prefix}.${key}` : key
    const memberForm = form?.members?.get(key)
    return { key, path, rule: Object.hasOwn(kind.rules, path) ? kind.rules[path] : undefined, form: memberForm, members: read === true ? undefined : membersOf(kind, memberForm, read, path) }
  })
}

/**
 * The members the rules read of what the whole overlay would build, each built as it builds them:
 * the rules read nothing else (src/plan/policy-reads.ts), so they find what the whole shape holds.
 */
function unoptimisedOverlayRead(kind: ResourceKind, declared: JsonObject, live: JsonObject, members: readonly ReadMember[], root: Root | undefined): JsonObject {
  const out: JsonObject = {}
  for (let i = 0; i < members.length; i++) {
    const member = members[i]!
    const value = Object.hasOwn(declared, member.key) ? unoptimisedDeclaredMember(kind, declared[member.key], live, member, root) : unoptimisedLiveMember(live, member, root)
    if (value !== undefined) unoptimisedSet(out, member.key, typeof value === 'string' ? unoptimisedShown(member.form, member.key, value, live, declared) : value)
  }
  return out
}

function unoptimisedLiveMember(live: JsonObject, member: ReadMember, root: Root | undefined): unknown {
  const theirs = Object.hasOwn(live, member.key) ? live[member.key] : undefined
  if (theirs === null || theirs === undefined || theirs === '') return undefined
  if (member.form !== undefined && member.form.onlyWhile !== undefined && !unoptimisedSwitchedOn(member.form, root)) return undefined
  // A live object overlaid with nothing is that object in the YAML's form (no rule applies: nothing is declared in it).
  return member.members !== undefined && isObject(theirs) ? unoptimisedOverlayRead(NO_RULES, NOTHING_DECLARED, theirs, member.members, root) : unoptimisedLiveForm(member.form, theirs, root)
}

function unoptimisedDeclaredMember(kind: ResourceKind, mine: unknown, live: JsonObject, member: ReadMember, root: Root | undefined): unknown {
  if (unoptimisedNotSet(mine)) return undefined
  if (typeof mine !== 'object') return member.form !== undefined && member.form.normalize !== undefined ? unoptimisedDeclaredScalar(member.form, mine, live[member.key]) : mine
  const theirs = Object.hasOwn(live, member.key) && unoptimisedSwitchedOn(member.form, root) ? live[member.key] : undefined
  const rule = member.rule
  if (isObject(mine) && rule?.type !== 'reference') {
    const under = isObject(theirs) ? theirs : NOTHING_DECLARED
    return member.members === undefined ? unoptimisedOverlay(kind, member.form, mine, under, member.path, root) : unoptimisedOverlayRead(kind, mine, under, member.members, root)
  }
  if (Array.isArray(mine) && Array.isArray(theirs) && rule?.type === 'keyed') return unoptimisedOverlayItems(member.form?.items, mine, theirs, rule.key)
  return unoptimisedLiveForm(member.form, mine, undefined)
}

/** Below a live object no declaration lies over, nothing is declared: no member's rule is asked. */
const NOTHING_DECLARED: JsonObject = Object.freeze({})
const NO_RULES = { rules: {} } as unknown as ResourceKind

function unoptimisedOverlay(kind: ResourceKind, form: FormNode | undefined, declared: JsonObject, live: JsonObject, prefix: string, root: Root | undefined): JsonObject {
  const out: JsonObject = {}
  const members = form?.members
  for (const key of Object.keys(live)) {
    const theirs = live[key]
    if (unoptimisedNotSet(theirs) || Object.hasOwn(declared, key)) continue
    const memberForm = members?.get(key)
    if (!unoptimisedSwitchedOn(memberForm, root)) continue
    const value = typeof theirs === 'object' ? unoptimisedLiveForm(memberForm, theirs, root) : typeof theirs === 'string' ? unoptimisedShown(memberForm, key, memberForm?.written !== undefined ? memberForm.written(theirs) : theirs, live, declared) : theirs
    if (value !== undefined) unoptimisedSet(out, key, value)
  }
  for (const key of Object.keys(declared)) {
    const mine = declared[key]
    if (unoptimisedNotSet(mine)) continue
    const memberForm = members?.get(key)
    // Most values are scalars: they are laid over as they are, with no rule to look up.
    if (typeof mine !== 'object') {
      const value = memberForm !== undefined && memberForm.normalize !== undefined ? unoptimisedDeclaredScalar(memberForm, mine, live[key]) : mine
      unoptimisedSet(out, key, typeof value === 'string' ? unoptimisedShown(memberForm, key, value, declared, live) : value)
      continue
    }
    const path = prefix ? `${prefix}.${key}` : key
    const theirs = Object.hasOwn(live, key) && unoptimisedSwitchedOn(memberForm, root) ? live[key] : undefined
    const rule = kind.rules[path]
    let value: unknown
    if (isObject(mine) && rule?.type !== 'reference') value = unoptimisedOverlay(kind, memberForm, mine, isObject(theirs) ? theirs : NOTHING_DECLARED, path, root)
    else if (Array.isArray(mine) && Array.isArray(theirs) && rule?.type === 'keyed') value = unoptimisedOverlayItems(memberForm?.items, mine, theirs, rule.key)
    else value = unoptimisedLiveForm(memberForm, mine, undefined)
    if (value !== undefined) unoptimisedSet(out, key, value)
  }
  return out
}

/**
 * A declared scalar the kind normalizes (a URL, a colour, a time): when it equals the live value
 * through the normalizer, the plan sends nothing, so the value after the apply is the live one,
 * in the YAML's form (`HTTPS://Shop.example.com:443` over `https://shop.example.com/` is the latter).
 */
function unoptimisedDeclaredScalar(form: FormNode, mine: unknown, theirs: unknown): unknown {
  // A value from a variable is shown to rules as (sensitive), never as the live value it may equal.
  if (theirs === null || theirs === undefined || typeof theirs === 'object' || mine === theirs || mine === SENSITIVE) return mine
  if (!unchangedNow) {
    const normalize = form.normalize!
    if (normalize(mine) !== normalize(theirs)) return mine
  }
  return typeof theirs === 'string' && form.written !== undefined ? form.written(theirs) : theirs
}

/** Null, an empty text, an empty list: how the service answers a field with no value (and how the YAML clears one). */
const unoptimisedNotSet = (value: unknown): boolean => value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)

/**
 * A value in the YAML's form: its members that are not set left out at every depth (a list's
 * items too, and a list left with none is not set), a text in the form the YAML writes it, a
 * member whose switch is off left out (a live value: `root` given). The value itself when nothing
 * changes; undefined when it is not set.
 */
function unoptimisedLiveForm(form: FormNode | undefined, value: unknown, root: Root | undefined): unknown {
  if (value === null || value === undefined || value === '') return undefined
  if (typeof value !== 'object') return typeof value === 'string' && form !== undefined && form.written !== undefined ? form.written(value) : value
  if (Array.isArray(value)) return value.length === 0 ? undefined : unoptimisedListForm(form === undefined ? undefined : form.items, value)
  const members = form === undefined ? undefined : form.members
  let copy: JsonObject | undefined
  const object = value as JsonObject
  const keys = Object.keys(object)
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    const member = object[key]
    const memberForm = members === undefined ? undefined : members.get(key)
    // Written out, not called: this runs for every member of what the rules read, mostly before V8 has compiled anything.
    let cleaned: unknown
    if (member === null || member === undefined || member === '') cleaned = undefined
    else if (memberForm !== undefined && memberForm.onlyWhile !== undefined && !unoptimisedSwitchedOn(memberForm, root)) cleaned = undefined
    else if (typeof member === 'string') cleaned = unoptimisedShown(memberForm, key, memberForm !== undefined && memberForm.written !== undefined ? memberForm.written(member) : member, object, undefined)
    else if (typeof member !== 'object') cleaned = member
    else cleaned = unoptimisedLiveForm(memberForm, member, root)
    if (cleaned === member) continue
    if (!copy) {
      copy = {}
      for (let j = 0; j < keys.length; j++) unoptimisedSet(copy, keys[j]!, object[keys[j]!])
    }
    if (cleaned === undefined) delete copy[key]
    else unoptimisedSet(copy, key, cleaned)
  }
  return copy ?? value
}

/** A text a list holds (no member names it, no flag marks it): `(sensitive)` when it holds a secret of the run. */
const unoptimisedShownItem = (text: string): string => ((holdsSecretNow !== undefined && holdsSecretNow(text)) || holdsUrlPassword(text) ? SENSITIVE : text)

/** A list's items in the YAML's form, those not set left out; undefined when none is left. */
function unoptimisedListForm(items: FormNode | undefined, value: unknown[]): unknown[] | undefined {
  let copy: unknown[] | undefined
  for (let i = 0; i < value.length; i++) {
    const item = value[i]
    const cleaned =
      item !== null && typeof item === 'object'
        ? unoptimisedLiveForm(items, item, undefined)
        : item === null || item === ''
          ? undefined
          : typeof item === 'string'
            ? unoptimisedShownItem(items !== undefined && items.written !== undefined ? items.written(item) : item)
            : item
    if (cleaned === item) {
      if (copy) copy.push(item)
      continue
    }
    copy ??= value.slice(0, i)
    if (cleaned !== undefined) copy.push(cleaned)
  }
  if (!copy) return value
  return copy.length === 0 ? undefined : copy
}

function unoptimisedOverlayItems(form: FormNode | undefined, declared: unknown[], live: unknown[], key: string): unknown[] | undefined {
  // A short list (labels, teams: a few items) is searched; a map of a long one is built once.
  let byKey: Map<unknown, JsonObject> | undefined
  if (live.length > SEARCHED_ITEMS) {
    byKey = new Map()
    for (let i = 0; i < live.length; i++) {
      const item = live[i]
      if (isObject(item) && item[key] !== undefined) byKey.set(item[key], item)
    }
  }
  // A loop, not map(): an arrow function would have no name for V8's filter to match.
  const items: unknown[] = []
  for (let i = 0; i < declared.length; i++) {
    const item = declared[i]
    const match = isObject(item) ? (byKey ? byKey.get(item[key]) : unoptimisedLastWithKey(live, key, item[key])) : undefined
    // Spread defines own members, `__proto__` included: the live item's members, then the declared ones over them.
    const value = unoptimisedLiveForm(form, match ? unoptimisedItemOver(form, item as JsonObject, match) : item, undefined)
    if (value !== undefined) items.push(value)
  }
  return items.length === 0 ? undefined : items
}

/** A declared item over its live one: the live members, then the declared ones, a member equal to the live one through its normalizer left live (a colour's case). */
function unoptimisedItemOver(form: FormNode | undefined, item: JsonObject, match: JsonObject): JsonObject {
  const merged = { ...match, ...item }
  const members = form === undefined ? undefined : form.members
  if (members === undefined) return merged
  for (const key of Object.keys(item)) {
    const memberForm = members.get(key)
    if (memberForm !== undefined && memberForm.normalize !== undefined && typeof item[key] !== 'object' && Object.hasOwn(match, key)) unoptimisedSet(merged, key, unoptimisedDeclaredScalar(memberForm, item[key], match[key]))
  }
  return merged
}

const SEARCHED_ITEMS = 16

/** The last live item whose `key` member is `value` (the one a map of them by that member would keep: NaN matches NaN, as there). */
function unoptimisedLastWithKey(live: unknown[], key: string, value: unknown): JsonObject | undefined {
  if (value === undefined) return undefined
  const nan = value !== value
  for (let i = live.length - 1; i >= 0; i--) {
    const item = live[i]
    if (!isObject(item)) continue
    const theirs = item[key]
    if (theirs === value || (nan && theirs !== theirs)) return item
  }
  return undefined
}

/** An own property, even for the key `__proto__` (which plain assignment would take as the prototype). */
function unoptimisedSet(target: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
  else target[key] = value
}
