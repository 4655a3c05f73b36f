import type { Ajv, ErrorObject, ValidateFunction } from 'ajv'
import { Diagnostic, formatPath, samePlace, type PathSegments, type SourcePosition } from '../core/diagnostics.js'
import { SENSITIVE, type JsonObject, type KindName } from '../core/types.js'
import type { ParsedFile } from './read-yaml.js'
import { closest } from './schema-errors.js'
import { misspeltFields } from './policy-fields.js'
import { metaSchemaErrors, shortenedForMetaCheck } from '../schema/policy-meta.js'
import { ScansyncError } from '../core/errors.js'

export type PolicyLevel = 'error' | 'warning'

/** A rule as a file writes it (already checked against the configuration schema). */
export interface DeclaredPolicy {
  name: string
  description?: string
  kind: KindName
  level: PolicyLevel
  when?: unknown
  require: unknown
  /** `policies[2]` */
  path: string
  /** Where a value inside the rule is written (`['require', 'required']`), or its key. */
  locate(path: PathSegments, options?: { key?: boolean }): SourcePosition
}

/** A rule ready to run: its schemas compiled once. */
export interface PolicyRule {
  name: string
  /** What the rule wants, in the author's words (the name when the rule has no description). */
  description: string
  kind: KindName
  level: PolicyLevel
  /** Where the rule is written. */
  source: SourcePosition
  when?: ValidateFunction
  require: ValidateFunction
}

/** The rules of one file's `policies` list, in order; `keep`: which entries to take (the schema found nothing wrong in them). */
export function declaredPolicies(list: unknown, parsed: ParsedFile, keep: (index: number) => boolean = () => true): DeclaredPolicy[] {
  if (!Array.isArray(list)) return []
  const rules: DeclaredPolicy[] = []
  list.forEach((rule: unknown, index) => {
    if (rule === null || typeof rule !== 'object' || Array.isArray(rule) || !keep(index)) return
    const entry = rule as JsonObject
    rules.push({
      name: entry.name as string,
      // A description that is not a text is the schema's error at its line; the rule is still compiled (load.ts), named by its name.
      description: typeof entry.description === 'string' ? entry.description : undefined,
      kind: entry.kind as KindName,
      level: (entry.level as PolicyLevel | undefined) ?? 'error',
      when: entry.when,
      require: entry.require,
      path: formatPath(['policies', index]),
      locate: (path, options) => parsed.locate(['policies', index, ...path], options),
    })
  })
  return rules
}

/**
 * Compiles every rule once, with Ajv loaded only now (a configuration without rules never loads
 * it). A rule that is not a valid JSON Schema, uses a keyword or format Ajv does not know (a
 * misspelling, in strict mode), or repeats another rule's name is a diagnostic at its line.
 */
export async function compilePolicies(declared: readonly DeclaredPolicy[]): Promise<{ rules: PolicyRule[]; diagnostics: Diagnostic[] }> {
  const rules: PolicyRule[] = []
  const diagnostics: Diagnostic[] = []
  if (declared.length === 0) return { rules, diagnostics }
  const { createPolicyAjv } = await import('../schema/policy-ajv.js')
  const ajv = createPolicyAjv({ formats: declared.some((rule) => namesFormat(rule.when) || namesFormat(rule.require)) })
  const first = new Map<string, DeclaredPolicy>()
  for (const rule of declared) {
    const earlier = first.get(rule.name)
    if (earlier) {
      // Two rules taking the name from one anchor are shown where each is declared, not at that anchor twice.
      const place: PathSegments = samePlace(rule.locate(['name']), earlier.locate(['name'])) ? [] : ['name']
      const where = (r: DeclaredPolicy) => {
        const at = r.locate(place)
        return `${at.file}:${at.line}`
      }
      diagnostics.push(at(rule, place, `policy ${rule.name} is declared twice: here and at ${where(earlier)}; a rule's name must be unique`))
      diagnostics.push(at(earlier, place, `policy ${rule.name} is declared twice: here and at ${where(rule)}; a rule's name must be unique`))
    } else first.set(rule.name, rule)
    // A rule declared twice is compiled too: what else is wrong with it is said in the same run.
    const when = rule.when === undefined ? undefined : compilePart(ajv, rule, 'when', diagnostics)
    const require = compilePart(ajv, rule, 'require', diagnostics)
    const misspelt = (['when', 'require'] as const).map((part) => checkFields(rule, part, diagnostics)).some(Boolean)
    if (earlier || misspelt || require === undefined || (rule.when !== undefined && when === undefined)) continue
    rules.push({ name: rule.name, description: oneLine(rule.description) || rule.name, kind: rule.kind, level: rule.level, source: rule.locate([]), when, require })
  }
  return { rules, diagnostics }
}

/** A rule with its schemas not compiled: as a saved plan keeps it (the schemas as they were compiled). */
export interface RuleSchemas extends Omit<PolicyRule, 'when' | 'require'> {
  when?: unknown
  require: unknown
}

/**
 * Rules a saved plan kept, compiled again for apply --plan: they were checked and compiled when
 * the plan was made, and the plan's checksum says they are as they were then; a rule that no
 * longer compiles (another version of scansync) refuses the apply rather than go unchecked.
 */
export async function compileSavedRules(saved: readonly RuleSchemas[], file: string): Promise<PolicyRule[]> {
  if (saved.length === 0) return []
  const { createPolicyAjv } = await import('../schema/policy-ajv.js')
  const ajv = createPolicyAjv({ formats: saved.some((rule) => namesFormat(rule.when) || namesFormat(rule.require)) })
  const compile = (rule: RuleSchemas, part: 'when' | 'require'): ValidateFunction => {
    try {
      return ajv.compile(rule[part] as object | boolean)
    } catch (error) {
      throw new ScansyncError(`${file}: policy ${rule.name}: ${part} cannot be compiled (${(error as Error).message}); nothing was sent. Run scansync plan --out again.`)
    }
  }
  return saved.map((rule) => {
    const { name, description, kind, level, source } = rule
    return { name, description, kind, level, source, ...(rule.when === undefined ? {} : { when: compile(rule, 'when') }), require: compile(rule, 'require') }
  })
}

/**
 * A description as the one line a violation starts with: a block scalar's line breaks (`>` ends
 * in one, `|` keeps each) are spaces, and the spaces around it are left out.
 */
const oneLine = (text: string | undefined): string => (text ?? '').replace(/\s*[\r\n\u2028\u2029]\s*/g, ' ').trim()

function at(rule: DeclaredPolicy, path: PathSegments, message: string, options?: { key?: boolean }): Diagnostic {
  const position = rule.locate(path, options)
  return { file: position.file, line: position.line, column: position.column, path: formatPath([rule.path, ...path]), message }
}

/** The meta-schema rules are written in, as `$schema` may name it (draft-07, http or https, with or without the `#`). */
const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/

/** One of a rule's schemas compiled; undefined (with a diagnostic) when it cannot be. */
function compilePart(ajv: Ajv, rule: DeclaredPolicy, part: 'when' | 'require', diagnostics: Diagnostic[]): ValidateFunction | undefined {
  let schema = rule[part] as object | boolean
  const prefix = `policy ${rule.name}: ${part}`
  if (typeof schema === 'object' && schema !== null && Object.hasOwn(schema, '$schema')) {
    const named = (schema as Record<string, unknown>).$schema
    if (typeof named !== 'string' || !DRAFT_07.test(named)) {
      diagnostics.push(at(rule, [part, '$schema'], `${prefix}: rules are written in JSON Schema draft-07; leave "$schema" out, or write "http://json-schema.org/draft-07/schema#"`))
      return undefined
    }
    const { $schema: _, ...rest } = schema as Record<string, unknown>
    schema = rest
  }
  // A rule's answer is used as it is given: an asynchronous one would pass whatever it finds.
  const asynchronous = findKeyword(schema, '$async')
  if (asynchronous) {
    diagnostics.push(at(rule, [part, ...asynchronous], `${prefix}: "$async" has no place in a rule: rules are checked as the plan reads each resource`, { key: true }))
    return undefined
  }
  // A resource's values are JSON: a rule about NaN or an infinity could never be met, and would be reported as about null.
  const nonJson = nonJsonNumber(schema)
  if (nonJson) {
    diagnostics.push(at(rule, [part, ...nonJson.path], `${prefix}${nonJson.path.length > 0 ? `.${formatPath(nonJson.path)}` : ''}: ${nonJson.value} is not a JSON number; a resource's values never are`))
    return undefined
  }
  const checked = shortenedForMetaCheck(schema) as object | boolean
  const meta = metaSchemaErrors(checked)
  let errors: ErrorObject[] | undefined
  try {
    errors = meta.knows ? meta.errors : ajv.validateSchema(checked) ? undefined : (ajv.errors ?? [])
  } catch (error) {
    diagnostics.push(at(rule, [part], `${prefix}: ${(error as Error).message}`, { key: true }))
    return undefined
  }
  if (errors) {
    const error = errors[0] as ErrorObject | undefined
    const segments = pointerSegments(error?.instancePath ?? '')
    const place = segments.length > 0 ? `.${formatPath(segments)}` : ''
    diagnostics.push(at(rule, [part, ...segments], `${prefix}${place} is not a valid JSON Schema: ${error?.message ?? 'invalid'}${allowed(error)}`))
    return undefined
  }
  let validate: ValidateFunction
  const known = new Set([...Object.keys(ajv.refs), ...Object.keys(ajv.schemas)])
  try {
    validate = ajv.compile(schema)
  } catch (error) {
    forgetId(ajv, schema, known)
    // Ajv itself recursed without end (`properties: {site: {$ref: "#/properties/site"}}`); without
    // a reference, or when the rule fails as well with its references left out, the code Ajv wrote
    // nests too deep for V8 (thousands of properties or alternatives).
    if (error instanceof RangeError && hasRef(schema) && !tooLargeWithoutRefs(ajv, schema, known)) diagnostics.push(at(rule, [part], `${prefix}: the schema refers to itself without end ($ref), so no resource can be checked against it`, { key: true }))
    else if (error instanceof RangeError) diagnostics.push(at(rule, [part], `${prefix}: the schema is too large to compile (thousands of properties or alternatives); a list of allowed values is written as one enum`, { key: true }))
    else diagnostics.push(malformedRef(ajv, rule, part, schema, (error as Error).message, prefix) ?? describeCompileError(rule, part, schema, (error as Error).message, prefix))
    return undefined
  }
  forgetId(ajv, schema, known)
  // Only a reference can recurse (draft-07 has no other way back into a schema): most rules have none.
  if (hasRef(schema) && recursesWithoutEnd(validate)) {
    diagnostics.push(at(rule, [part], `${prefix}: the schema refers to itself without end ($ref), so no resource can be checked against it`, { key: true }))
    return undefined
  }
  return validate
}

/**
 * Each rule's schemas stand alone: once compiled, a schema is no longer kept by its `$id`, so that
 * rules sharing a piece of schema that has one (an x- anchor used by several rules), or naming
 * the same `$id`, each compile (Ajv refused the second: `schema with key or id "…" already exists`);
 * `known`: what Ajv kept before this schema was compiled.
 */
function forgetId(ajv: Ajv, schema: unknown, known: ReadonlySet<string>): void {
  // Not one Ajv held before (the meta-schema's id, which a rule may name): that stays, for the rules after.
  const id = schema !== null && typeof schema === 'object' ? (schema as Record<string, unknown>).$id : undefined
  if (typeof id === 'string' && !known.has(id.replace(/#\/?$/, ''))) ajv.removeSchema(schema as object)
  // An `$id` inside the schema (the shared piece under a rule's allOf) is kept by Ajv as well.
  for (const key of Object.keys(ajv.refs)) if (!known.has(key)) delete ajv.refs[key]
  for (const key of Object.keys(ajv.schemas)) if (!known.has(key)) delete ajv.schemas[key]
}

/**
 * A `$ref` that is not a well-formed URI (`#/definitions/50%`) makes Ajv's URI parser throw
 * (`URI contains malformed percent-encoding.`), naming no place: the reference is the first one,
 * in the order of the text, that alone fails as the schema did.
 */
function malformedRef(ajv: Ajv, rule: DeclaredPolicy, part: 'when' | 'require', schema: unknown, message: string, prefix: string): Diagnostic | undefined {
  if (/^(?:strict mode: |can't resolve reference |Invalid regular expression: )/.test(message)) return undefined
  for (const path of refsOf(schema)) {
    const ref = path.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], schema) as string
    try {
      ajv.compile({ $ref: ref })
    } catch (error) {
      if ((error as Error).message !== message) continue
      const hint = ref.includes('%') ? '; a % in a name is written %25' : ''
      return at(rule, [part, ...path], `${prefix}.${formatPath(path)}: ${JSON.stringify(ref)} is not a well-formed reference (${message}${hint})`)
    }
  }
  return undefined
}

/** Where each `$ref` of a schema is written (the string ones), in the order of the text. */
function refsOf(schema: unknown, path: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return out
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string') out.push([...path, key])
    if (SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object') for (const [name, sub] of Object.entries(value)) refsOf(sub, [...path, key, name], out)
    else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) value.forEach((sub, i) => refsOf(sub, [...path, key, i], out))
    if (SCHEMA_VALUES.has(key)) refsOf(value, [...path, key], out)
  }
  return out
}

/** Whether a schema holds a `$ref` anywhere. */
/**
 * Whether a schema Ajv could not compile (V8's RangeError) cannot be compiled with its `$ref`s left
 * out either: too large, a harmless reference in it (to a definition) being no recursion.
 */
function tooLargeWithoutRefs(ajv: Ajv, schema: unknown, known: ReadonlySet<string>): boolean {
  const strip = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(strip)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).filter(([key]) => key !== '$ref' && key !== '$id').map(([key, member]) => [key, strip(member)]))
        : value
  const stripped = strip(schema)
  try {
    ajv.compile(stripped as object)
    return false
  } catch (error) {
    return error instanceof RangeError
  } finally {
    forgetId(ajv, stripped, known)
  }
}

function hasRef(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false
  if (Array.isArray(value)) return value.some(hasRef)
  return Object.hasOwn(value, '$ref') || Object.values(value).some(hasRef)
}

/** Whether a validator recurses without end on the simplest values (`$ref: "#"` as the whole schema, or under `not` or `allOf`). */
function recursesWithoutEnd(validate: ValidateFunction): boolean {
  for (const probe of [{}, [], '', 0, null]) {
    try {
      validate(probe)
    } catch (error) {
      if (error instanceof RangeError) return true
      throw error
    }
  }
  return false
}

/** A field the rule names that its kind does not have, but nearly has, is an error at its name; whether there was one. */
function checkFields(rule: DeclaredPolicy, part: 'when' | 'require', diagnostics: Diagnostic[]): boolean {
  if (rule[part] === undefined) return false
  const misspelt = misspeltFields(rule.kind, rule[part])
  for (const field of misspelt) {
    const article = /^[aeiou]/.test(rule.kind) ? 'an' : 'a'
    const text = field.asText
    const message = text !== undefined
      ? `policy ${rule.name}: ${part}: rules see ${article} ${rule.kind}'s ${field.field} as {${text.members.join(', ')}}, never as a text, so ${text.keyword} ${JSON.stringify(text.value)} there ${text.silent ? 'checks nothing' : 'never holds'}; write it on its ${text.member}: {properties: {${text.member}: {${text.keyword}: ${JSON.stringify(text.value)}}}, required: [${text.member}]}`
      : field.secretKeyword !== undefined
      ? `policy ${rule.name}: ${part}: rules see ${article} ${rule.kind}'s ${field.field} as "${SENSITIVE}", never its value (a secret), so ${field.secretKeyword} cannot be checked on it`
      : field.value !== undefined
      ? `policy ${rule.name}: ${part}: ${article} ${rule.kind}'s ${field.field} is never ${JSON.stringify(field.value)} (did you mean ${JSON.stringify(field.meant)}?${field.value.toLowerCase() === field.meant.toLowerCase() ? ' values are compared as written, letter case too' : ''})`
      : field.only
      ? `policy ${rule.name}: ${part}: rules see ${article} ${rule.kind}'s ${field.only.place} as {${field.only.members.join(', ')}}: ${field.field} is never there, so a rule about it passes silently`
      : field.atTop
        ? `policy ${rule.name}: ${part}: rules see ${article} ${rule.kind}'s ${field.meant} at its top level, as the YAML writes it, never at ${field.field}; a rule about it there passes silently`
        : `policy ${rule.name}: ${part}: ${article} ${rule.kind} has no field ${field.field} (did you mean ${field.meant}?); a rule about a field that is never there passes silently`
    diagnostics.push(at(rule, [part, ...field.path], message, { key: field.key }))
  }
  return misspelt.length > 0
}

/**
 * Whether a schema may check a `format` (ajv-formats is loaded only then): a `format` key written
 * anywhere, or a reference to another document (the draft-07 meta-schema, which names formats), so
 * that whether a rule compiles never depends on what other rules are written.
 */
function namesFormat(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false
  if (Array.isArray(value)) return value.some(namesFormat)
  const ref = (value as Record<string, unknown>).$ref
  return Object.hasOwn(value, 'format') || (typeof ref === 'string' && !ref.startsWith('#')) || Object.values(value).some(namesFormat)
}

/** Where a schema holds a number that is not one of JSON's (`.nan`, `.inf` in YAML), and which. */
function nonJsonNumber(value: unknown, path: Array<string | number> = []): { path: Array<string | number>; value: number } | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : { path, value }
  if (value === null || typeof value !== 'object') return undefined
  for (const [key, sub] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const found = nonJsonNumber(sub, [...path, key])
    if (found) return found
  }
  return undefined
}

/** `must be equal to one of the allowed values` says which. */
function allowed(error: ErrorObject | undefined): string {
  const values = (error?.params as { allowedValues?: unknown[] } | undefined)?.allowedValues
  return Array.isArray(values) ? ` (${values.map((v) => JSON.stringify(v)).join(', ')})` : ''
}

/** The keywords of JSON Schema draft-07, to suggest the one a misspelling meant. */
const KEYWORDS = [
  '$id', '$schema', '$ref', '$comment', 'title', 'description', 'default', 'readOnly', 'writeOnly', 'examples', 'multipleOf',
  'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'additionalItems', 'items',
  'maxItems', 'minItems', 'uniqueItems', 'contains', 'maxProperties', 'minProperties', 'required', 'additionalProperties',
  'definitions', 'properties', 'patternProperties', 'dependencies', 'propertyNames', 'const', 'enum', 'type', 'format',
  'contentMediaType', 'contentEncoding', 'if', 'then', 'else', 'allOf', 'anyOf', 'oneOf', 'not',
]

/**
 * Keywords of the drafts after draft-07 (2019-09, 2020-12), which strict mode refuses as unknown:
 * what draft-07 writes instead, so that a rule is not "corrected" to a draft-07 keyword it only
 * looks like (`minContains` is not a misspelt `contains`).
 */
const LATER_DRAFTS: Record<string, string> = {
  minContains: ', where contains asks for one matching item; for several, write one contains for each in allOf',
  maxContains: ', where contains asks for one matching item and nothing counts them',
  dependentRequired: ', which writes it as dependencies: {NAME: [OTHER, …]}',
  dependentSchemas: ', which writes it as dependencies: {NAME: SCHEMA}',
  unevaluatedProperties: ', which writes it as additionalProperties beside the properties it allows',
  unevaluatedItems: ', which writes it as additionalItems beside a list of items',
  prefixItems: ', which writes it as items: [SCHEMA, …]',
  $anchor: ', which names a place with $id: "#NAME"',
  $dynamicRef: ', which refers with $ref: "#/definitions/NAME"',
  $dynamicAnchor: ', which names a place with $id: "#NAME"',
  $recursiveRef: ', which refers with $ref: "#/definitions/NAME"',
  $recursiveAnchor: ', which names a place with $id: "#NAME"',
  $vocabulary: '; leave it out',
}

/**
 * Ajv's strict-mode complaint, placed: an unknown keyword names only itself, so it is looked for
 * in the schema (where a schema may stand: not inside `properties` names, `enum` or `const`
 * values); an unknown format names its place.
 */
function describeCompileError(rule: DeclaredPolicy, part: 'when' | 'require', schema: unknown, message: string, prefix: string): Diagnostic {
  const keyword = /unknown keyword: "([^"]*)"/.exec(message)?.[1]
  if (keyword !== undefined) {
    const path = findKeyword(schema, keyword) ?? []
    const place = path.length > 1 ? ` at ${formatPath(path.slice(0, -1))}` : ''
    const instead = LATER_DRAFTS[keyword]
    if (Object.hasOwn(LATER_DRAFTS, keyword) && instead !== undefined) {
      return at(rule, [part, ...path], `${prefix}: "${keyword}"${place} is a keyword of a later JSON Schema draft (2019-09 or 2020-12); rules are written in draft-07${instead}`, { key: path.length > 0 })
    }
    const suggestion = closest(keyword, KEYWORDS)
    const hint = suggestion ? ` (did you mean "${suggestion}"?)` : ''
    return at(rule, [part, ...path], `${prefix}: unknown keyword "${keyword}"${place}${hint}; JSON Schema keywords are checked strictly so that a misspelt rule cannot pass silently`, { key: path.length > 0 })
  }
  // A reference Ajv cannot resolve: named by its text only.
  const unresolved = /^can't resolve reference (.*) from id /s.exec(message)?.[1]
  if (unresolved !== undefined) {
    const path = findRef(schema, unresolved)
    if (path) {
      return at(rule, [part, ...path], `${prefix}.${formatPath(path)}: ${JSON.stringify(unresolved)} names nothing; a $ref names a place in the rule itself (#/definitions/NAME), and no other document is read`)
    }
  }
  // Ajv compiles each pattern as it meets it, and its error names neither the rule's place nor the keyword.
  if (/^Invalid regular expression: /.test(message)) {
    const bad = findBadPattern(schema)
    if (bad) {
      const place = formatPath(bad.path[bad.path.length - 1] === 'pattern' ? bad.path : bad.path.slice(0, -1))
      return at(rule, [part, ...bad.path], `${prefix}.${place}: ${JSON.stringify(bad.source)} is not a valid regular expression (${bad.reason})`, { key: bad.key })
    }
  }
  const format = /unknown format "([^"]*)" ignored in schema at path "#([^"]*)"/.exec(message)
  if (format) {
    const path = [...pointerSegments(format[2], true), 'format']
    return at(rule, [part, ...path], `${prefix}: unknown format "${format[1]}"`)
  }
  // Another complaint of strict mode names the keyword it is about first (`"if" without "then" and "else" is ignored`).
  const ignored = /^strict mode: "([^"]+)"/.exec(message)?.[1]
  const path = ignored === undefined ? undefined : findKeyword(schema, ignored, [], (holder) => ignoredIn(ignored, holder))
  if (path) {
    const place = path.length > 1 ? `.${formatPath(path.slice(0, -1))}` : ''
    return at(rule, [part, ...path], `${prefix}${place}: ${message.replace(/^strict mode: /, '')}`, { key: true })
  }
  return at(rule, [part], `${prefix}: ${message.replace(/^strict mode: /, '')}`, { key: true })
}

/** Whether strict mode ignores `keyword` in this (sub)schema, for the complaints it names one in. */
function ignoredIn(keyword: string, holder: Record<string, unknown>): boolean {
  if (keyword === 'if') return !Object.hasOwn(holder, 'then') && !Object.hasOwn(holder, 'else')
  if (keyword === 'then' || keyword === 'else') return !Object.hasOwn(holder, 'if')
  if (keyword === 'additionalItems') return !Array.isArray(holder.items)
  return true
}

/** Keywords whose value is a map of names to schemas, or a list of schemas, or one schema. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependencies'])
const SCHEMA_LISTS = new Set(['items', 'allOf', 'anyOf', 'oneOf'])
const SCHEMA_VALUES = new Set(['additionalItems', 'items', 'contains', 'additionalProperties', 'propertyNames', 'if', 'then', 'else', 'not'])

/** Where `keyword` is written as a key of a (sub)schema, first in the order of the text. */
function findKeyword(schema: unknown, keyword: string, path: Array<string | number> = [], where?: (holder: Record<string, unknown>) => boolean): Array<string | number> | undefined {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return undefined
  for (const [key, value] of Object.entries(schema)) {
    if (key === keyword && (where === undefined || where(schema as Record<string, unknown>))) return [...path, key]
    let found: Array<string | number> | undefined
    if (SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object') {
      for (const [name, sub] of Object.entries(value)) if ((found = findKeyword(sub, keyword, [...path, key, name], where))) break
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      for (const [i, sub] of value.entries()) if ((found = findKeyword(sub, keyword, [...path, key, i], where))) break
    }
    if (!found && SCHEMA_VALUES.has(key)) found = findKeyword(value, keyword, [...path, key], where)
    if (found) return found
  }
  return undefined
}

/** Where a `$ref` reading `ref` is written in a schema, first in the order of the text. */
function findRef(schema: unknown, ref: string, path: Array<string | number> = []): Array<string | number> | undefined {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return undefined
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && value === ref) return [...path, key]
    let found: Array<string | number> | undefined
    if (SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object') {
      for (const [name, sub] of Object.entries(value)) if ((found = findRef(sub, ref, [...path, key, name]))) break
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      for (const [i, sub] of value.entries()) if ((found = findRef(sub, ref, [...path, key, i]))) break
    }
    if (!found && SCHEMA_VALUES.has(key)) found = findRef(value, ref, [...path, key])
    if (found) return found
  }
  return undefined
}

/**
 * The first pattern of a schema that is not a regular expression Ajv accepts (with the `u` flag, as
 * Ajv compiles them): a `pattern` value, or a `patternProperties` name (then `key`), and why.
 */
function findBadPattern(schema: unknown, path: Array<string | number> = []): { path: Array<string | number>; source: string; reason: string; key: boolean } | undefined {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return undefined
  const check = (source: string, at: Array<string | number>, key: boolean) => {
    try {
      new RegExp(source, 'u')
      return undefined
    } catch (error) {
      const reason = (error as Error).message.replace(/^Invalid regular expression: \/[\s\S]*\/u: /, '')
      return { path: at, source, reason, key }
    }
  }
  for (const [key, value] of Object.entries(schema)) {
    let found: ReturnType<typeof findBadPattern>
    if (key === 'pattern' && typeof value === 'string') found = check(value, [...path, key], false)
    if (!found && key === 'patternProperties' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const name of Object.keys(value)) if ((found = check(name, [...path, key, name], true))) break
    }
    if (!found && SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object') {
      for (const [name, sub] of Object.entries(value)) if ((found = findBadPattern(sub, [...path, key, name]))) break
    } else if (!found && SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      for (const [i, sub] of value.entries()) if ((found = findBadPattern(sub, [...path, key, i]))) break
    }
    if (!found && SCHEMA_VALUES.has(key)) found = findBadPattern(value, [...path, key])
    if (found) return found
  }
  return undefined
}

/**
 * A JSON pointer's segments. An error's instancePath is a plain pointer (a member named `a%` is
 * `/a%`); a schema path in Ajv's messages (`#/properties/a%25`) is a URI fragment: `uri`.
 */
const pointerSegments = (pointer: string, uri = false): Array<string | number> =>
  pointer === '' || pointer === '/'
    ? []
    : pointer
        .replace(/^\//, '')
        .split('/')
        .map((raw) => {
          const segment = (uri ? decodeURIComponent(raw) : raw).replaceAll('~1', '/').replaceAll('~0', '~')
          return /^\d+$/.test(segment) ? Number(segment) : segment
        })
