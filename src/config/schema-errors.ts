import type { ErrorObject } from 'ajv'
import { PathSegments } from '../core/diagnostics.js'
import schemaFormats from '../schema/formats.cjs'
import { schemaDocuments } from '../schema/files.js'
import { follow, type JsonSchema } from '../schema/refs.js'

/** An Ajv error turned into words for people, with the place it concerns. */
export interface SchemaProblem {
  /** Where the offending value is. */
  path: PathSegments
  /** Point at the key of the last segment rather than its value (unknown keys). */
  atKey: boolean
  message: string
}

const pointerToSegments = (pointer: string): Array<string | number> =>
  pointer === ''
    ? []
    : pointer.slice(1).split('/').map((raw) => {
        const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~')
        return /^\d+$/.test(segment) ? Number(segment) : segment
      })

const describeType = (value: unknown): string => {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'a mapping'
  if (typeof value === 'string') return 'a string'
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number'
  return `a ${typeof value}`
}

const typeWords: Record<string, string> = {
  string: 'a string', integer: 'an integer', number: 'a number', boolean: 'true or false',
  array: 'a list', object: 'a mapping', null: 'null',
}

export function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1))
      previous = current
    }
  }
  return row[b.length]
}

export function closest(word: string, candidates: string[]): string | undefined {
  let best: string | undefined
  let bestDistance = Infinity
  for (const candidate of candidates) {
    const distance = levenshtein(word.toLowerCase(), candidate.toLowerCase())
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  const allowed = Math.max(2, Math.floor(word.length / 3))
  return bestDistance <= allowed ? best : undefined
}

/**
 * Ajv reports every branch of an `anyOf` that failed. When some branch fits the value's type, its
 * errors say what is wrong (a label written as a mapping is explained as a mapping, not also as a
 * string); when none does, the `anyOf` itself says what forms are allowed.
 */
function pruneAnyOfBranches(errors: ErrorObject[]): ErrorObject[] {
  // Indexed by place: looking through every error for each anyOf took time quadratic in the
  // number of errors (20,000 bad labels took minutes).
  const atPlace = new Map<string, ErrorObject[]>()
  /** Places that have an error somewhere below them. */
  const above = new Set<string>()
  for (const error of errors) {
    const place = error.instancePath
    const here = atPlace.get(place)
    if (here) here.push(error)
    else atPlace.set(place, [error])
    for (let i = place.indexOf('/'); i >= 0; i = place.indexOf('/', i + 1)) above.add(place.slice(0, i))
  }
  const dropped = new Set<ErrorObject>()
  for (const anyOf of errors) {
    if (anyOf.keyword !== 'anyOf') continue
    const at = anyOf.instancePath
    const here = atPlace.get(at) ?? []
    const typeMismatches = here.filter((e) => e !== anyOf && e.keyword === 'type')
    typeMismatches.forEach((e) => dropped.add(e))
    for (const e of mappingsNotMeant(at, here, atPlace)) dropped.add(e)
    // Some other error (below, or here but not a type mismatch) says what is wrong.
    const explained = above.has(at) || here.some((e) => e !== anyOf && e.keyword !== 'type' && !dropped.has(e))
    if (explained) dropped.add(anyOf)
  }
  return errors.filter((e) => !dropped.has(e))
}

/**
 * A value that may be one of several mappings (a team `{id}` or `{name}`) fails each of them: the
 * errors of the mappings it was not meant to be are left out, so that `{nme: Security}` is not
 * also told that it misses `id` (and so `name` and `id` together are not said to be required). A
 * mapping was not meant when the value writes a field another form has (`{name: 5}` is no `{id}`
 * lacking its id), or when another form alone is near one of its fields (`nme` is near `name`).
 * When no form is singled out, the choice itself (the `anyOf`) says which forms are allowed.
 */
function mappingsNotMeant(at: string, here: readonly ErrorObject[], atPlace: ReadonlyMap<string, ErrorObject[]>): ErrorObject[] {
  const forms = new Map<object, ErrorObject[]>()
  for (const e of here) {
    if ((e.keyword !== 'required' && e.keyword !== 'additionalProperties') || e.parentSchema === null || typeof e.parentSchema !== 'object') continue
    const list = forms.get(e.parentSchema)
    if (list) list.push(e)
    else forms.set(e.parentSchema, [e])
  }
  if (forms.size === 0) return []
  const known = (form: object) => Object.keys(((form as { properties?: object }).properties ?? {}) as object)
  const unknown = (list: readonly ErrorObject[]) => list.filter((e) => e.keyword === 'additionalProperties').map((e) => String((e.params as { additionalProperty: unknown }).additionalProperty))
  const checkedBelow = (field: string) => {
    const place = `${at}/${field.replaceAll('~', '~0').replaceAll('/', '~1')}`
    for (const key of atPlace.keys()) if (key === place || key.startsWith(`${place}/`)) return true
    return false
  }
  const entries = [...forms]
  const notMeant = entries.filter(([form, list]) => unknown(list).some((field) => checkedBelow(field) || entries.some(([other]) => other !== form && known(other).includes(field))))
  let left = entries.filter((entry) => !notMeant.includes(entry))
  if (left.length > 1) {
    const near = left.filter(([form, list]) => unknown(list).some((field) => closest(field, known(form)) !== undefined))
    left = near.length === 1 ? near : []
  }
  if (forms.size === 1 && left.length === 1) return []
  return entries.filter((entry) => !left.includes(entry)).flatMap(([, list]) => list)
}

export interface DescribeOptions {
  /** True when the value at that place must not be echoed (it came from a variable). */
  isSensitive(path: PathSegments): boolean
  /** Turns a path into the words that name it (`site.name`, with its resource). */
  name(path: PathSegments): string
  /** A scalar as written in the file (`000123`, where the value read is 123): what to quote. */
  written?(path: PathSegments): string | undefined
  /** The word after `#` where a value reads as null because YAML took it for a comment (`color: #d93f0b`). */
  comment?(path: PathSegments): string | undefined
  /** The schema file the errors come from: an unknown field that is a field one level in or out is told where it belongs. */
  schemaFile?: string
}

/**
 * Past this many different unknown fields in one file, one gets no "did you mean": each suggestion
 * measures the field against every known one, and a hostile file of 70,000 unknown keys spent
 * seconds on them. The same unknown field among the same known ones (a block 2,000 resources
 * merge) gets the same hint each time, so that it is said once (groupRepeated).
 */
const SUGGESTED_PROBLEMS = 1_000

/** What follows "unknown field" for a field among known ones, worked out once for each. */
class UnknownFieldHints {
  private readonly hints = new Map<string, string>()

  hint(field: string, known: string[]): string {
    const key = JSON.stringify([field, known])
    let hint = this.hints.get(key)
    if (hint !== undefined) return hint
    if (this.hints.size >= SUGGESTED_PROBLEMS) return ''
    const suggestion = closest(field, known)
    hint = suggestion ? `; did you mean "${suggestion}"?` : known.length > 0 ? ` (known fields: ${known.join(', ')})` : ''
    this.hints.set(key, hint)
    return hint
  }
}

/**
 * A value of the wrong type also fails the checks that only make sense for the right type (an
 * enum of integers given "6"); the type error alone says what is wrong.
 */
function pruneBesideTypeErrors(errors: ErrorObject[]): ErrorObject[] {
  const wrongType = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath))
  return errors.filter((e) => e.keyword === 'type' || e.keyword === 'anyOf' || !wrongType.has(e.instancePath))
}

/** Characters as people (and Ajv's maxLength) count them: code points, not UTF-16 units. */
const characters = (value: unknown): number => {
  let count = 0
  for (const _ of String(value)) count++
  return count
}

/**
 * `color: #d93f0b` reads as null: after a space, YAML takes `#` for the start of a comment. Said
 * with the value to write, quoted (not for a place whose value is a secret: a comment there is not quoted back).
 */
function commentHint(path: PathSegments, types: readonly string[], options: DescribeOptions): string {
  if (!types.includes('string')) return ''
  const word = options.comment?.(path)
  if (word === undefined) return ''
  return options.isSensitive(path) ? '; a # after a space starts a comment in YAML: quote the value' : `; a # after a space starts a comment in YAML: quote it: "${word}"`
}

/**
 * An item of a list of `{name, value}` (a header, a cookie, a login form field) written as the one
 * pair it stands for, `- Authorization: Bearer x`: the places of such items. Their one unknown field
 * says how to write the item; that `name` and `value` are missing is no further news.
 */
function pairsWrittenAsOneField(errors: readonly ErrorObject[]): Set<string> {
  const places = new Set<string>()
  for (const error of errors) {
    if (error.keyword !== 'additionalProperties') continue
    const required = (error.parentSchema as { required?: unknown } | undefined)?.required
    const data = error.data
    if (!Array.isArray(required) || !required.includes('name') || !required.includes('value')) continue
    if (data === null || typeof data !== 'object' || Array.isArray(data) || Object.keys(data).length !== 1) continue
    // `{nme: X}` is a misspelt name, not a pair: its "did you mean" says so.
    if (closest(String((error.params as { additionalProperty: unknown }).additionalProperty), ['name', 'value']) !== undefined) continue
    places.add(error.instancePath)
  }
  return places
}

export function describeSchemaErrors(errors: ErrorObject[], options: DescribeOptions): SchemaProblem[] {
  const problems: SchemaProblem[] = []
  const seen = new Set<string>()
  const missing = new Map<string, string[]>()
  const hints = new UnknownFieldHints()
  const pairs = pairsWrittenAsOneField(errors)
  const kept = pruneBesideTypeErrors(pruneAnyOfBranches(errors)).filter((e) => e.keyword !== 'required' || !pairs.has(e.instancePath))
  for (const error of kept) {
    if (error.keyword !== 'required') continue
    const fields = missing.get(error.instancePath) ?? []
    const field = String((error.params as { missingProperty: unknown }).missingProperty)
    if (!fields.includes(field)) fields.push(field)
    missing.set(error.instancePath, fields)
  }
  for (const error of kept) {
    const problem = error.keyword === 'required'
      ? describeMissing(error.instancePath, missing.get(error.instancePath) ?? [], options)
      : describe(error, options, hints, pairs.has(error.instancePath) && error.keyword === 'additionalProperties')
    const key = JSON.stringify(problem)
    if (!seen.has(key)) {
      seen.add(key)
      problems.push(problem)
    }
  }
  return problems
}

/**
 * Every field missing from one mapping, in one problem, at the key that holds the mapping (or at
 * the list item, for an item of a list).
 */
function describeMissing(pointer: string, fields: string[], options: DescribeOptions): SchemaProblem {
  const path = pointerToSegments(pointer)
  const subject = options.name(path)
  const names = fields.map((field) => `"${field}"`)
  const what = names.length === 1 ? `missing required field ${names[0]}` : `missing required fields ${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
  return { path, atKey: typeof path.at(-1) === 'string', message: `${subject ? subject + ': ' : ''}${what}` }
}

const enumWords = (allowed: unknown[]): string => `must be one of: ${allowed.map((v) => (v === '' ? '""' : String(v))).join(', ')}`

const patternWords = (schema: Record<string, unknown>, pattern: string): string =>
  typeof schema['x-error'] === 'string' ? schema['x-error'] : `must match the pattern ${pattern}`

/**
 * A URL refused only for its spelling (a Unicode host, a space or an accent in the path): how to
 * write the same URL so that it passes, `; write it "https://xn--bcher-kva.example/" (…)`, or
 * nothing. Without it `https://bücher.example/` was told to be "an absolute URL such as
 * https://example.com/", which it looks like.
 */
function uriSpelling(value: unknown): string {
  if (typeof value !== 'string') return ''
  let written: string
  try {
    const parsed = new URL(value)
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return ''
    written = parsed.href
  } catch {
    return ''
  }
  if (written === value || !(schemaFormats.formats.uri as (text: string) => boolean)(written)) return ''
  return `; write it ${JSON.stringify(written)} (the host in its xn-- form, other characters %-encoded)`
}

/** A schema with its `$ref`s followed (the ref written in `file`), or undefined where there is none. */
function resolved(file: string, schema: unknown): JsonSchema | undefined {
  if (schema === null || typeof schema !== 'object') return undefined
  return follow(schemaDocuments, { file, pointer: '', schema: schema as JsonSchema }).schema
}

const propertiesOf = (schema: JsonSchema | undefined): Record<string, unknown> =>
  schema !== undefined && schema.properties !== null && typeof schema.properties === 'object' ? (schema.properties as Record<string, unknown>) : {}

/**
 * A newcomer's field at the wrong level: `url:` beside `site:` (a field of site), or
 * `api_scan_settings:` inside `site:` (a field of the target). Said with where it belongs, or ''.
 * Only mappings reached through `properties` count (not the items of a list).
 */
function wrongLevelHint(field: string, path: PathSegments, parentSchema: Record<string, unknown>, file: string | undefined): string {
  if (file === undefined) return ''
  const inside = Object.entries(propertiesOf(parentSchema))
    .filter(([, schema]) => Object.hasOwn(propertiesOf(resolved(file, schema)), field))
    .map(([name]) => `"${name}"`)
  if (inside.length > 0) return `; it belongs inside ${inside.join(' or ')}: indent it under ${inside.length === 1 ? inside[0] : 'one of them'}`
  const own = path.at(-1)
  if (typeof own !== 'string') return ''
  // The schema of the mapping that holds this one, walked from the document's root.
  let schema = resolved(file, schemaDocuments(file))
  for (const segment of path.slice(0, -1)) {
    const next = typeof segment === 'number' ? schema?.items : propertiesOf(schema)[segment]
    schema = resolved(file, next)
    if (schema === undefined) return ''
  }
  return own !== field && Object.hasOwn(propertiesOf(schema), field) ? `; it belongs one level up, beside "${own}" (not inside it)` : ''
}

function describe(error: ErrorObject, options: DescribeOptions, hints: UnknownFieldHints, pairWrittenAsOneField = false): SchemaProblem {
  const path = pointerToSegments(error.instancePath)
  const data: unknown = error.data
  const parentSchema = (error.parentSchema ?? {}) as Record<string, unknown>
  const shown = (value: unknown) => (options.isSensitive(path) ? '(sensitive)' : JSON.stringify(value))
  const subject = options.name(path)
  const say = (text: string, at = path, atKey = false): SchemaProblem => ({ path: at, atKey, message: subject ? `${subject} ${text}` : text })
  const params = error.params as Record<string, unknown>

  switch (error.keyword) {
    case 'additionalProperties': {
      const field = String(params.additionalProperty)
      const known = Object.keys((parentSchema.properties ?? {}) as object)
      const where = options.name([...path, field])
      const hint = pairWrittenAsOneField
        ? `; an item here is a mapping {name, value}: write name: ${JSON.stringify(field)} and the value as value:, each on its own line`
        : wrongLevelHint(field, path, parentSchema, options.schemaFile) || hints.hint(field, known)
      return { path: [...path, field], atKey: true, message: `${where}: unknown field${hint}` }
    }
    case 'type': {
      const types = String(params.type).split(',')
      const expected = types.map((t) => typeWords[t] ?? t).join(' or ')
      // YAML reads 12345 or true as a number or a boolean; quoting makes it the string it was meant to be.
      // A secret is not repeated, whatever its type.
      // As written, not as read: `id: 000123` is the id "000123", not "123".
      const misread = types.includes('string') && (typeof data === 'number' || typeof data === 'boolean')
      const text = misread && !options.isSensitive(path) ? (options.written?.(path) ?? String(data)) : undefined
      // Quoted, the text would still fail the string's own form or list of values: say that at once
      // (quoting would only lead to that error on the next run).
      if (text !== undefined) {
        const allowed = parentSchema.enum
        if (Array.isArray(allowed) && !allowed.includes(text)) return say(`${enumWords(allowed)} (got ${text})`)
        const pattern = parentSchema.pattern
        if (typeof pattern === 'string' && !new RegExp(pattern, 'u').test(text)) return say(`${patternWords(parentSchema, pattern)} (got ${text})`)
      }
      const quote = misread ? (text === undefined ? '; quote it' : `; quote it: "${text}"`) : data === null ? commentHint(path, types, options) : ''
      return say(`must be ${expected} (got ${describeType(data)}${quote})`)
    }
    case 'maxLength':
      return say(`must be at most ${params.limit} characters (got ${characters(data)})`)
    case 'minLength':
      return Number(params.limit) === 1 ? say('must not be empty') : say(`must be at least ${params.limit} characters (got ${characters(data)})`)
    case 'enum':
      return say(`${enumWords(params.allowedValues as unknown[])} (got ${shown(data)})`)
    case 'const':
      return say(`must be ${JSON.stringify(params.allowedValue)} (got ${shown(data)})`)
    case 'pattern':
      return say(`${patternWords(parentSchema, String(params.pattern))} (got ${shown(data)})`)
    case 'format':
      return say(params.format === 'uri' ? `must be an absolute URL such as https://example.com/${options.isSensitive(path) ? '' : uriSpelling(data)} (got ${shown(data)})` : `must be a valid ${params.format} (got ${shown(data)})`)
    case 'minimum':
    case 'maximum':
      return say(`must be ${error.keyword === 'minimum' ? 'at least' : 'at most'} ${params.limit} (got ${shown(data)})`)
    case 'uniqueItems':
      return say(`must not list the same value twice (items ${Number(params.j) + 1} and ${Number(params.i) + 1} are equal)`)
    case 'anyOf': {
      const words = typeof parentSchema['x-error'] === 'string' ? parentSchema['x-error'] : 'is not one of the allowed forms'
      // A bare name or id that YAML reads as a number or a boolean (`labels: [2024]`): quoted, it is
      // the string shorthand the form allows, as `{name: 2024}` is told.
      if (typeof parentSchema['x-shorthand-for'] !== 'string' || (typeof data !== 'number' && typeof data !== 'boolean')) return say(words)
      const text = options.isSensitive(path) ? undefined : (options.written?.(path) ?? String(data))
      return say(`${words} (got ${describeType(data)}; quote it${text === undefined ? '' : `: "${text}"`})`)
    }
    default:
      return say(error.message ?? 'is not valid')
  }
}
