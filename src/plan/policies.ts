import type { ErrorObject } from 'ajv'
import type { PolicyLevel, PolicyRule } from '../config/policies.js'
import { formatPath, type SourcePosition } from '../core/diagnostics.js'
import { isObject } from '../core/json.js'
import type { DesiredResource, JsonObject, KindName } from '../core/types.js'
import { KIND_ORDER } from '../resources/index.js'
import type { FieldRule, ResourceKind } from '../resources/kind.js'
import { readsOf, union, type Reads } from './policy-reads.js'

// Functions named `unoptimised…` build and check the after-apply shapes, once per resource of a
// plan. V8's optimising compiler leaves them alone, as it leaves the rules' validators
// (src/schema/policy-ajv.ts): over a plan's thousands of resources, compiling them cost more CPU
// than the optimised code saved, on cores the plan keeps busy (bin/v8-flags.js, docs/performance.md).

/** A rule a resource breaks (contract, "Policies"). */
export interface Violation {
  policy: string
  level: PolicyLevel
  kind: KindName
  id: string
  /** The rule's description, then what Ajv found and where. */
  message: string
  /** Where the resource is declared; undefined when no file declares it (audit). */
  where?: SourcePosition
  /** Where the rule is written: the place to point at for a resource no file declares. */
  rule: SourcePosition
}

/**
 * A resource as it will be after the apply, in the YAML's shape: the live resource projected by
 * its kind, with the declared fields laid over it (objects member by member; a list the kind keys
 * by a member, labels or teams, item by item on that key, so a label declared without its colour
 * keeps the live colour; any other value replaced whole, as the apply sends it).
 *
 * A member whose value is null is left out: the service (and the projection) write null for a
 * field that is not set, and a rule saying `required: [blackout_period]` means "is set".
 */
export function afterApply(kind: ResourceKind, id: string, declared: JsonObject, live: JsonObject, reads: Reads = true): JsonObject {
  const shape = reads === true ? unoptimisedOverlay(kind, declared, live, '') : unoptimisedOverlayRead(kind, declared, live, readMembers(kind, reads))
  shape.id = id
  return shape
}

/**
 * A member the rules read, worked out once per kind: its key, its path among the kind's rules,
 * the rule there, and the members read of it (undefined: the whole value). A plan builds
 * thousands of shapes, mostly before V8 has optimised anything: no path is spelt out and no map
 * walked per resource.
 */
interface ReadMember {
  key: string
  path: string
  rule: FieldRule | undefined
  members: ReadMember[] | undefined
}

const readMembersByKind = new WeakMap<ResourceKind, WeakMap<Map<string, Reads>, ReadMember[]>>()

function readMembers(kind: ResourceKind, reads: Map<string, Reads>): ReadMember[] {
  let byReads = readMembersByKind.get(kind)
  if (!byReads) readMembersByKind.set(kind, (byReads = new WeakMap()))
  let members = byReads.get(reads)
  if (!members) byReads.set(reads, (members = membersOf(kind, reads, '')))
  return members
}

function membersOf(kind: ResourceKind, reads: Map<string, Reads>, prefix: string): ReadMember[] {
  return [...reads].map(([key, read]) => {
    const path = prefix ? `${prefix}.${key}` : key
    return { key, path, rule: Object.hasOwn(kind.rules, path) ? kind.rules[path] : undefined, members: read === true ? undefined : membersOf(kind, read, path) }
  })
}

/**
 * The members the rules read of what the whole overlay would build, each built as it builds them:
 * the rules read nothing else (src/plan/policy-reads.ts), so they find what the whole shape holds.
 */
function unoptimisedOverlayRead(kind: ResourceKind, declared: JsonObject, live: JsonObject, members: readonly ReadMember[]): JsonObject {
  const out: JsonObject = {}
  for (let i = 0; i < members.length; i++) {
    const member = members[i]!
    const value = Object.hasOwn(declared, member.key) ? unoptimisedDeclaredMember(kind, declared[member.key], live, member) : unoptimisedLiveMember(live, member)
    if (value !== undefined) unoptimisedSet(out, member.key, value)
  }
  return out
}

function unoptimisedLiveMember(live: JsonObject, member: ReadMember): unknown {
  const theirs = Object.hasOwn(live, member.key) ? live[member.key] : undefined
  if (theirs === null || theirs === undefined) return undefined
  // A live object overlaid with nothing is that object without its nulls (no rule applies: nothing is declared in it).
  return member.members !== undefined && isObject(theirs) ? unoptimisedOverlayRead(NO_RULES, NOTHING_DECLARED, theirs, member.members) : unoptimisedWithoutNulls(theirs)
}

function unoptimisedDeclaredMember(kind: ResourceKind, mine: unknown, live: JsonObject, member: ReadMember): unknown {
  if (mine === null || mine === undefined) return undefined
  if (typeof mine !== 'object') return mine
  const theirs = Object.hasOwn(live, member.key) ? live[member.key] : undefined
  const rule = member.rule
  if (isObject(mine) && rule?.type !== 'reference') {
    const under = isObject(theirs) ? theirs : {}
    return member.members === undefined ? unoptimisedOverlay(kind, mine, under, member.path) : unoptimisedOverlayRead(kind, mine, under, member.members)
  }
  if (Array.isArray(mine) && Array.isArray(theirs) && rule?.type === 'keyed') return unoptimisedOverlayItems(mine, theirs, rule.key)
  return unoptimisedWithoutNulls(mine)
}

/** Below a live object no declaration lies over, nothing is declared: no member's rule is asked. */
const NOTHING_DECLARED: JsonObject = Object.freeze({})
const NO_RULES = { rules: {} } as unknown as ResourceKind

function unoptimisedOverlay(kind: ResourceKind, declared: JsonObject, live: JsonObject, prefix: string): JsonObject {
  const out: JsonObject = {}
  for (const key of Object.keys(live)) {
    const theirs = live[key]
    if (theirs === null || theirs === undefined || Object.hasOwn(declared, key)) continue
    unoptimisedSet(out, key, typeof theirs === 'object' ? unoptimisedWithoutNulls(theirs) : theirs)
  }
  for (const key of Object.keys(declared)) {
    const mine = declared[key]
    if (mine === null || mine === undefined) continue
    // Most values are scalars: they are laid over as they are, with no rule to look up.
    if (typeof mine !== 'object') {
      unoptimisedSet(out, key, mine)
      continue
    }
    const path = prefix ? `${prefix}.${key}` : key
    const theirs = Object.hasOwn(live, key) ? live[key] : undefined
    const rule = kind.rules[path]
    if (isObject(mine) && rule?.type !== 'reference') unoptimisedSet(out, key, unoptimisedOverlay(kind, mine, isObject(theirs) ? theirs : {}, path))
    else if (Array.isArray(mine) && Array.isArray(theirs) && rule?.type === 'keyed') unoptimisedSet(out, key, unoptimisedOverlayItems(mine, theirs, rule.key))
    else unoptimisedSet(out, key, unoptimisedWithoutNulls(mine))
  }
  return out
}

/** A value with the null members of its objects left out, at every depth (the value itself when it has none). */
function unoptimisedWithoutNulls(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const item = unoptimisedWithoutNulls(value[i])
      if (item !== value[i]) (copy ??= value.slice())[i] = item
    }
    return copy ?? value
  }
  let copy: JsonObject | undefined
  const object = value as JsonObject
  for (const key of Object.keys(object)) {
    const member = object[key]
    const cleaned = member === null || member === undefined ? undefined : unoptimisedWithoutNulls(member)
    if (cleaned === member) continue
    if (!copy) {
      copy = {}
      for (const k of Object.keys(object)) unoptimisedSet(copy, k, object[k])
    }
    if (cleaned === undefined) delete copy[key]
    else unoptimisedSet(copy, key, cleaned)
  }
  return copy ?? value
}

function unoptimisedOverlayItems(declared: unknown[], live: unknown[], key: string): unknown[] {
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
    if (!isObject(item)) {
      items.push(unoptimisedWithoutNulls(item))
      continue
    }
    const match = byKey ? byKey.get(item[key]) : unoptimisedLastWithKey(live, key, item[key])
    // Spread defines own members, `__proto__` included: the live item's members, then the declared ones over them.
    items.push(unoptimisedWithoutNulls(match ? { ...match, ...item } : item))
  }
  return items
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

/**
 * Runs the rules on resources one at a time, as they are read (a plan keeps no resource it does
 * not change): pure but for the violations it collects. Each rule's schemas were compiled once.
 */
export class PolicyChecker {
  private readonly byKind = new Map<KindName, PolicyRule[]>()
  private readonly readsByKind = new Map<KindName, Reads>()
  private readonly found: Violation[] = []

  constructor(rules: readonly PolicyRule[]) {
    for (const rule of rules) {
      const list = this.byKind.get(rule.kind)
      if (list) list.push(rule)
      else this.byKind.set(rule.kind, [rule])
      let reads = union(this.readsByKind.get(rule.kind) ?? new Map(), readsOf(rule.require.schema))
      if (rule.when) reads = union(reads, readsOf(rule.when.schema))
      this.readsByKind.set(rule.kind, reads)
    }
  }

  /** What the rules of a kind read of a resource: the part of the after-apply shape to build (afterApply's `reads`). */
  reads(kind: KindName): Reads {
    return this.readsByKind.get(kind) ?? new Map()
  }

  /** Whether any rule looks at resources of this kind. */
  checks(kind: KindName): boolean {
    return this.byKind.has(kind)
  }

  /** Checks one resource in the YAML's shape; `declared` locates a violation in the files. */
  check(kind: KindName, id: string, shape: JsonObject, declared?: Pick<DesiredResource, 'source'>): void {
    const rules = this.byKind.get(kind)
    if (rules === undefined || unoptimisedAllPass(rules, shape)) return
    for (const rule of rules) {
      if (rule.when && !rule.when(shape)) continue
      if (rule.require(shape)) continue
      const error = rule.require.errors?.[0]
      const message = describeFailure(kind, error)
      this.found.push({
        policy: rule.name,
        level: rule.level,
        kind,
        id,
        message: `${rule.description} (${message})`,
        // The resource's line (contract): the message names the field.
        where: declared ? { file: declared.source.file, line: declared.source.line, column: declared.source.column } : undefined,
        rule: rule.source,
      })
    }
  }

  /** The violations found, declared resources first in the order of the files, then by kind and id. */
  violations(): Violation[] {
    return [...this.found].sort(
      (a, b) =>
        Number(a.where === undefined) - Number(b.where === undefined) ||
        (a.where && b.where ? a.where.file.localeCompare(b.where.file) || a.where.line - b.where.line : 0) ||
        KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) ||
        a.policy.localeCompare(b.policy),
    )
  }
}

/** Whether a resource in its after-apply shape satisfies every rule of its kind (the usual answer: then nothing else is done). */
function unoptimisedAllPass(rules: readonly PolicyRule[], shape: JsonObject): boolean {
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!
    if (rule.when && !rule.when(shape)) continue
    if (!rule.require(shape)) return false
  }
  return true
}

/** The rules over a set of resources at once (tests, the benchmark). */
export function evaluatePolicies(rules: readonly PolicyRule[], resources: Iterable<{ kind: KindName; id: string; shape: JsonObject; declared?: Pick<DesiredResource, 'source'> }>): Violation[] {
  const checker = new PolicyChecker(rules)
  for (const resource of resources) checker.check(resource.kind, resource.id, resource.shape, resource.declared)
  return checker.violations()
}

export const hasErrors = (violations: readonly Violation[]): boolean => violations.some((v) => v.level === 'error')

/**
 * Ajv's first error in words: the field it concerns and its message with the value the rule allows (`must be equal to constant true`). Never the resource's value:
 * it may be a secret.
 */
function describeFailure(kind: KindName, error: ErrorObject | undefined): string {
  if (!error) return `the ${kind}: does not satisfy the rule`
  const field = pointerSegments(error.instancePath)
  const params = error.params as Record<string, unknown>
  let message = error.message ?? 'does not satisfy the rule'
  if (error.keyword === 'const') message += ` ${JSON.stringify(params.allowedValue)}`
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) message += ` ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`
  // The member's name (a field of the kind, never a value): which one the rule does not allow.
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') message += ` (${JSON.stringify(params.additionalProperty)})`
  const place = formatPath(field)
  return `${place || `the ${kind}`}: ${message}`
}

const pointerSegments = (pointer: string): Array<string | number> =>
  pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((raw) => {
          const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~')
          return /^\d+$/.test(segment) ? Number(segment) : segment
        })
