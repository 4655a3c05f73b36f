import type { ErrorObject } from 'ajv'
import { Script } from 'node:vm'
import type { PolicyLevel, PolicyRule } from '../config/policies.js'
import { formatPath, type SourcePosition } from '../core/diagnostics.js'
import { ScansyncError } from '../core/errors.js'
import { SENSITIVE, type DesiredResource, type JsonObject, type KindName } from '../core/types.js'
import { KIND_ORDER } from '../resources/index.js'
import type { ResourceKind } from '../resources/kind.js'
import { afterApply, declaredForRules } from './after-apply.js'
import { holdsUrlPassword } from '../schema/sensitivity.js'
import { liveSecrets } from '../secrets/redact.js'
import { readsOf, union, type Reads } from './policy-reads.js'
import { literalTexts } from './literal-texts.js'
import { tooDeep } from './build-plan.js'

// `unoptimised…`: checks each after-apply shape (src/plan/after-apply.ts), once per resource of a
// plan; V8's optimising compiler leaves it alone, as it leaves the rules' validators (bin/v8-flags.js).

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

const NOTHING_DECLARED: JsonObject = Object.freeze({}) as JsonObject

/** A resource waiting for the rules, in its after-apply shape. */
interface Pending {
  kind: KindName
  id: string
  shape: JsonObject
  declared?: Pick<DesiredResource, 'source'>
}

/** Resources checked together, within one time limit (see bounded: each limit starts a watchdog thread, ~0.5 ms). */
const BATCH = 1024

/**
 * How long the rules may take over a batch of resources, then over one resource, then one rule
 * over it: a `pattern` that backtracks (`^(a|a)*$`) takes years on some values, and a value a
 * rule reads may be typed by anyone in the service's web interface. Checking a batch normally
 * takes milliseconds.
 */
export const RULE_TIME_LIMITS_MS = { batch: 2000, resource: 1000, rule: 1000 }

/**
 * Runs the rules on resources as they are read (a plan keeps no resource it does not change),
 * a batch at a time: pure but for the violations it collects. Each rule's schemas were compiled once.
 */
export class PolicyChecker {
  private readonly byKind = new Map<KindName, PolicyRule[]>()
  private readonly readsByKind = new Map<KindName, Reads>()
  private readonly found: Violation[] = []
  private pending: Pending[] = []

  private readonly holdsSecret: ((text: string) => boolean) | undefined

  /** `holdsSecret`: whether a text holds a secret of the run (the redaction's), kept from the rules as `(sensitive)`. */
  constructor(rules: readonly PolicyRule[], options: { holdsSecret?: (text: string) => boolean } = {}) {
    this.holdsSecret = options.holdsSecret
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

  /**
   * Checks a resource as it will be after the apply (after-apply.ts): the live one (projected by
   * its kind) with what `declared` declares, its secrets kept from the rules. `id`: how the
   * resource is named (a target to create: its URL). `unchanged`: the plan found nothing to change
   * in it; `held`: the secrets the live resource holds (liveSecrets), when the caller found them already.
   */
  checkAfterApply(kind: ResourceKind, id: string, declared: DesiredResource | undefined, live: JsonObject, { unchanged = false, held }: { unchanged?: boolean; held?: readonly string[] } = {}): void {
    if (!this.byKind.has(kind.name)) return
    const fields = declared ? declaredForRules(declared.fields, declared.templates) : NOTHING_DECLARED
    // A name that came from a variable, or a URL with a password in it, is a secret too (a target to create, named by its URL);
    // so is one holding a secret of the run (a weak one, which the output step leaves in a text), as the plan's heading shows it.
    const key = declared?.naturalKey
    const secretName = (declared?.id === '' && key !== undefined && (declared.templates.has(key.field) || this.holdsSecret?.(id) === true)) || holdsUrlPassword(id)
    const shownId = secretName ? SENSITIVE : id
    // A value no file declares is not compared, but a rule may read it: an answer nested thousands
    // of levels deep there overflowed while the shape was built ("unexpected failure … please
    // report it"); it is refused as the comparison refuses one (build-plan.ts, tooDeep).
    let shape: JsonObject
    try {
      shape = afterApply(kind, shownId, fields, live, this.reads(kind.name), { holdsSecret: this.secretsOf(held ?? liveSecrets(kind, live), fields), unchanged })
    } catch (error) {
      throw tooDeep(error, kind.name, shownId)
    }
    this.check(kind.name, shownId, shape, declared)
  }

  /**
   * Whether a text of a resource's shape holds a secret: one of the run, or one the live resource
   * holds in clear (a description quoting its own login's password). A text the YAML writes as it
   * is (no variable in it) is the repository's own, and a rule that reads it learns nothing the
   * repository does not say: it is shown as written, though a short secret be in it (a password
   * `staging` in the URL `https://staging.shop.example.com/`).
   */
  private secretsOf(quoted: readonly string[], declared: JsonObject): ((text: string) => boolean) | undefined {
    const run = this.holdsSecret
    if (run === undefined && quoted.length === 0) return undefined
    let written: Set<string> | undefined
    return (text) => (quoted.some((secret) => text.includes(secret)) || run?.(text) === true) && !(written ??= literalTexts(declared)).has(text)
  }

  /** Checks one resource in the YAML's shape (with the next ones of its batch); `declared` locates a violation in the files. */
  check(kind: KindName, id: string, shape: JsonObject, declared?: Pick<DesiredResource, 'source'>): void {
    if (!this.byKind.has(kind)) return
    this.pending.push({ kind, id, shape, declared })
    if (this.pending.length >= BATCH) this.drain()
  }

  /** The resources waiting, checked within the time limits; a rule that takes longer on one of them is an error naming both. */
  private drain(): void {
    const batch = this.pending
    this.pending = []
    if (batch.length === 0) return
    holdsSecretNow = this.holdsSecret
    try {
      this.drainBatch(batch)
    } finally {
      holdsSecretNow = undefined
    }
  }

  private drainBatch(batch: Pending[]): void {
    const found = bounded(() => unoptimisedViolationsOfAll(this.byKind, batch), RULE_TIME_LIMITS_MS.batch)
    if (found !== TIMED_OUT) {
      this.found.push(...found)
      return
    }
    // Which resource, then which rule, took the time is found by checking each alone: only a rule
    // that takes too long alone is an error (several slow ones together are not).
    for (const resource of batch) {
      const alone = bounded(() => unoptimisedViolationsOfAll(this.byKind, [resource]), RULE_TIME_LIMITS_MS.resource)
      if (alone !== TIMED_OUT) {
        this.found.push(...alone)
        continue
      }
      for (const rule of this.byKind.get(resource.kind)!) {
        const found = bounded(() => violationOf(rule, resource), RULE_TIME_LIMITS_MS.rule)
        if (found === TIMED_OUT) {
          const at = `${rule.source.file}:${rule.source.line}:${rule.source.column}`
          throw new ScansyncError(`${at}: policy ${rule.name}: checking ${resource.kind} ${resource.id} took more than ${RULE_TIME_LIMITS_MS.rule / 1000} s (a pattern that backtracks on its values?), so the rule cannot be checked`)
        }
        if (found) this.found.push(found)
      }
    }
  }

  /** The violations found, declared resources first in the order of the files, then by kind and id. */
  violations(): Violation[] {
    this.drain()
    return sortViolations(this.found)
  }
}

/**
 * Violations in the order they are shown: declared resources first in the order of the files, then by kind and id.
 * Names by their characters, not the locale's collation (Danish puts "aa" after "z"): the same order on every machine.
 */
export const sortViolations = (violations: readonly Violation[]): Violation[] =>
  [...violations].sort(
    (a, b) =>
      Number(a.where === undefined) - Number(b.where === undefined) ||
      (a.where && b.where ? byCharacters(a.where.file, b.where.file) || a.where.line - b.where.line : 0) ||
      KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
      byCharacters(a.id, b.id) ||
      byCharacters(a.policy, b.policy),
  )

const byCharacters = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

const TIMED_OUT = Symbol('timed out')
const BOUNDED_KEY = Symbol.for('scansync.policies.bounded')
/** Runs the function registered under BOUNDED_KEY: V8 stops a script run with a timeout, even inside a regular expression. */
const BOUNDED = new Script('globalThis[Symbol.for("scansync.policies.bounded")]()', { filename: 'scansync-policy-rules' })

/** `work`'s answer, or TIMED_OUT once it has run `limitMs` (it is then stopped). */
function bounded<T>(work: () => T, limitMs: number): T | typeof TIMED_OUT {
  const global = globalThis as unknown as Record<symbol, unknown>
  global[BOUNDED_KEY] = work
  try {
    return BOUNDED.runInThisContext({ timeout: limitMs }) as T
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return TIMED_OUT
    throw error
  } finally {
    delete global[BOUNDED_KEY]
  }
}

/** The rules each resource breaks. */
function unoptimisedViolationsOfAll(byKind: ReadonlyMap<KindName, readonly PolicyRule[]>, resources: readonly Pending[]): Violation[] {
  const found: Violation[] = []
  for (let i = 0; i < resources.length; i++) {
    const resource = resources[i]!
    const rules = byKind.get(resource.kind)
    if (rules === undefined || unoptimisedPassesAll(rules, resource.kind, resource.shape)) continue
    for (const rule of rules) {
      const violation = violationOf(rule, resource)
      if (violation) found.push(violation)
    }
  }
  return found
}

/** The violation of a rule by a resource, if it breaks it. */
function violationOf(rule: PolicyRule, { kind, id, shape, declared }: Pending): Violation | undefined {
  if (rule.when && !passes(rule, 'when', shape, kind)) return undefined
  if (passes(rule, 'require', shape, kind)) return undefined
  const message = explainFailure(kind, rule.require.errors ?? [], rule.require.schema)
  return {
    policy: rule.name,
    level: rule.level,
    kind,
    id,
    message: `${rule.description} (${message})`,
    // The resource's line (contract): the message names the field.
    where: declared ? { file: declared.source.file, line: declared.source.line, column: declared.source.column } : undefined,
    rule: rule.source,
  }
}

/** Whether a resource in its after-apply shape satisfies every rule of its kind (the usual answer: then nothing else is done). */
function unoptimisedPassesAll(rules: readonly PolicyRule[], kind: KindName, shape: JsonObject): boolean {
  try {
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i]!
      if (rule.when && !rule.when(shape)) continue
      if (!rule.require(shape)) return false
    }
    return true
  } catch (error) {
    // Which rule recursed is found by asking each alone (check), which says so.
    if (error instanceof RangeError) return false
    throw error
  }
}

/** One part of a rule on a shape; a rule whose `$ref` recursed without end on it is an error that names the rule. */
function passes(rule: PolicyRule, part: 'when' | 'require', shape: JsonObject, kind: KindName): boolean {
  try {
    return rule[part]!(shape) as boolean
  } catch (error) {
    if (!(error instanceof RangeError)) throw error
    const at = `${rule.source.file}:${rule.source.line}:${rule.source.column}`
    throw new ScansyncError(`${at}: policy ${rule.name}: ${part}: the schema refers to itself without end ($ref) on a ${kind}'s values, so it cannot be checked`)
  }
}

/** The rules over a set of resources at once (tests, the benchmark). */
export function evaluatePolicies(rules: readonly PolicyRule[], resources: Iterable<{ kind: KindName; id: string; shape: JsonObject; declared?: Pick<DesiredResource, 'source'> }>): Violation[] {
  const checker = new PolicyChecker(rules)
  for (const resource of resources) checker.check(resource.kind, resource.id, resource.shape, resource.declared)
  return checker.violations()
}

export const hasErrors = (violations: readonly Violation[]): boolean => violations.some((v) => v.level === 'error')

/**
 * What a resource failed, from Ajv's errors (the first failure, and what led to it): the first
 * error, or, when it lies in alternatives none of which the resource meets (anyOf, a oneOf none
 * matches), each alternative in turn, so that no single one reads as what the rule requires. An
 * error about one item inside a `contains` that failed is left for the `contains` itself.
 * `schema`: the rule's, to follow an alternative's `$ref`s (Ajv places an error inside a
 * referenced definition at the definition: `#/definitions/blackout/required`).
 */
function explainFailure(kind: KindName, errors: readonly ErrorObject[], schema: unknown): string {
  const alternatives = alternativesOf(kind, errors, schema)
  return alternatives.length === 1 ? alternatives[0]! : `one of: ${alternatives.join('; or ')}`
}

const isUnder = (path: string, outer: string) => outer === '#' || path.startsWith(`${outer}/`)
const noneMatched = (error: ErrorObject) => error.keyword === 'anyOf' || (error.keyword === 'oneOf' && (error.params as { passingSchemas?: unknown }).passingSchemas === null)

/** The (sub)schema at a schema path (`#/anyOf/0`, a URI fragment), if the rule has one there. */
function schemaAt(schema: unknown, path: string): unknown {
  if (!path.startsWith('#')) return undefined
  let node = schema
  for (const raw of path.slice(1).split('/').slice(1)) {
    let segment: string
    try {
      segment = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~')
    } catch {
      return undefined
    }
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, segment)) return undefined
    node = (node as Record<string, unknown>)[segment]
  }
  return node
}

/**
 * Whether an error (its schema path) may lie in the subschema at one of `places`: under it, or,
 * for a definition a `$ref` reaches, at a keyword of that definition (Ajv places an error inside a
 * definition it inlines at the definition, `#/definitions/staging/required`, and one inside a
 * definition it calls as a function of its own from that definition, `#/required`).
 */
function liesIn(schema: unknown, places: readonly string[], path: string): boolean {
  return places.some((place, i) => path === place || isUnder(path, place) || (i > 0 && path !== '#' && schemaAt(schemaAt(schema, place), path) !== undefined))
}

/** The schema paths an error inside the subschema at `path` may carry: its own, and those of the definitions its `$ref`s reach. */
function placesOf(schema: unknown, path: string): string[] {
  const places = [path]
  for (let i = 0; i < places.length; i++) {
    const refs: string[] = []
    const collect = (node: unknown): void => {
      if (node === null || typeof node !== 'object') return
      if (Array.isArray(node)) return node.forEach(collect)
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith('#')) refs.push(value)
        else collect(value)
      }
    }
    collect(schemaAt(schema, places[i]!))
    for (const ref of refs) if (!places.includes(ref)) places.push(ref)
  }
  return places
}

/** The failure the errors describe, as the alternatives it offered (one when it offered none). */
function alternativesOf(kind: KindName, errors: readonly ErrorObject[], schema: unknown): string[] {
  const first = errors.find(
    (error, i) => !errors.slice(i + 1).some((later) => later.keyword === 'contains' && liesIn(schema, placesOf(schema, later.schemaPath), error.schemaPath)),
  )
  if (first === undefined) return [describeFailure(kind, undefined, schema)]
  // The outermost alternatives the first error lies in, and its errors, alternative by alternative:
  // those just before it that lie in one of its alternatives (Ajv lists them in order, then the choice).
  let choice: { at: number; branches: ErrorObject[][] } | undefined
  errors.forEach((error, at) => {
    if (!noneMatched(error) || (choice !== undefined && at < choice.at)) return
    const count = Array.isArray(schemaAt(schema, error.schemaPath)) ? (schemaAt(schema, error.schemaPath) as unknown[]).length : 0
    const places = Array.from({ length: count }, (_, k) => placesOf(schema, `${error.schemaPath}/${k}`))
    const branches: ErrorObject[][] = places.map(() => [])
    let branch = count - 1
    for (let i = at - 1; i >= 0; i--) {
      const path = errors[i]!.schemaPath
      let k = branch
      while (k >= 0 && !liesIn(schema, places[k]!, path)) k--
      if (k < 0) break
      branches[k]!.unshift(errors[i]!)
      branch = k
    }
    if (branches.some((list) => list.includes(first))) choice = { at, branches }
  })
  if (choice === undefined) return [describeFailure(kind, first, schema)]
  return choice.branches.filter((branch) => branch.length > 0).flatMap((branch) => alternativesOf(kind, branch, schema))
}

/**
 * Ajv's first error in words: the field it concerns and its message with the value the rule allows (`must be equal to constant true`). Never the resource's value:
 * it may be a secret.
 */
function describeFailure(kind: KindName, error: ErrorObject | undefined, schema: unknown): string {
  if (!error) return `the ${kind}: does not satisfy the rule`
  const field = pointerSegments(error.instancePath)
  const params = error.params as Record<string, unknown>
  let message = error.message ?? 'does not satisfy the rule'
  // `require: false` (what `when` selects is forbidden), or `false` for a member: Ajv says "boolean schema is false".
  // Only a `require` that is `false` itself allows none: a `false` under else, allOf or an alternative forbids only some.
  if (error.keyword === 'false schema') message = field.length > 0 ? 'is not allowed here' : error.schemaPath === '#/false schema' ? 'is not allowed: the rule allows none it applies to' : 'is not allowed'
  if (error.keyword === 'const') message += ` ${shownValue(params.allowedValue)}`
  // Ajv's "must NOT be valid" says nothing of what is forbidden: the schema under `not` does.
  if (error.keyword === 'not') message = forbiddenBy(schema, error.schemaPath)
  // Ajv's "must contain at least 1 valid item(s)" does not say which item: the schema under `contains` does.
  const wanted = error.keyword === 'contains' ? keywordSchema(schema, error.schemaPath) : undefined
  // A function, not a text: `$$` or `$&` in the rule's text are its own, not replacement patterns.
  if (wanted !== undefined) message = message.replace('valid item(s)', () => `item(s) matching ${shownValue(wanted)}`)
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    // A list of thousands (the known ids) would make each violation a line of hundreds of kilobytes.
    const values = params.allowedValues
    const shown = values.slice(0, MAX_VALUES_SHOWN).map(shownValue).join(', ')
    message += values.length > MAX_VALUES_SHOWN ? ` ${shown}, … (${values.length} allowed values)` : ` ${shown}`
  }
  // The member's name (a field of the kind, never a value): which one the rule does not allow.
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') message += ` (${JSON.stringify(params.additionalProperty)})`
  const place = formatPath(field)
  // An error about a member's name (propertyNames) is at the object: the name broke the rule, not the object's value.
  const name = (error as ErrorObject & { propertyName?: unknown }).propertyName
  if (typeof name === 'string') message = `the member name ${JSON.stringify(name)} ${message}`
  return `${place || `the ${kind}`}: ${message}`
}

/**
 * The subschema an error's keyword holds (the rule's text, never the resource's value). Its schema
 * path may be the rule's or, in a definition Ajv calls as a function of its own, that
 * definition's: undefined unless exactly one place has it.
 */
function keywordSchema(schema: unknown, path: string): object | undefined {
  const found = new Set(placesOf(schema, '#').map((place) => (place === '#' ? schemaAt(schema, path) : schemaAt(schemaAt(schema, place), path))))
  found.delete(undefined)
  let [only] = found
  // A lone `$ref` names nothing to a reviewer: what it refers to does (a few steps, a cycle ends it).
  for (let steps = 0; steps < 8 && isLoneRef(only); steps++) only = schemaAt(schema, (only as { $ref: string }).$ref)
  return found.size === 1 && only !== null && typeof only === 'object' ? only : undefined
}

const isLoneRef = (node: unknown): boolean =>
  node !== null && typeof node === 'object' && Object.keys(node).length === 1 && typeof (node as { $ref?: unknown }).$ref === 'string' && (node as { $ref: string }).$ref.startsWith('#')

/** What a `not` forbids, in words: `must not be "lightning"`, `must not be one of …`, or the schema under it. */
function forbiddenBy(schema: unknown, path: string): string {
  const forbidden = keywordSchema(schema, path)
  if (forbidden === undefined) return 'must not match the schema under its "not"'
  const keys = Object.keys(forbidden)
  const only = keys.length === 1 ? (forbidden as Record<string, unknown>)[keys[0]!] : undefined
  if (keys[0] === 'const' && keys.length === 1) return `must not be ${shownValue(only)}`
  if (keys[0] === 'enum' && Array.isArray(only)) {
    const shown = only.slice(0, MAX_VALUES_SHOWN).map(shownValue).join(', ')
    return `must not be one of ${shown}${only.length > MAX_VALUES_SHOWN ? `, … (${only.length} values)` : ''}`
  }
  return `must not match ${shownValue(forbidden)}`
}

/** How many of an enum's values a violation names, and how long a value it names may be. */
const MAX_VALUES_SHOWN = 10
const MAX_VALUE_TEXT = 200

/** Whether a text holds a secret of the run, while a checker's violations are found (its `holdsSecret`). */
let holdsSecretNow: ((text: string) => boolean) | undefined

/**
 * A value a rule allows, as JSON, cut (on a whole character) when long. A long one holding a
 * secret of the run is `(sensitive)`: the cut could leave a part of the secret that the output
 * step, which redacts whole secrets, would not recognise.
 */
function shownValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  if (text.length <= MAX_VALUE_TEXT) return text
  if (holdsSecretNow?.(text) === true) return JSON.stringify(SENSITIVE)
  const end = text.charCodeAt(MAX_VALUE_TEXT - 1) >= 0xd800 && text.charCodeAt(MAX_VALUE_TEXT - 1) <= 0xdbff ? MAX_VALUE_TEXT - 1 : MAX_VALUE_TEXT
  return `${text.slice(0, end)}…`
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
