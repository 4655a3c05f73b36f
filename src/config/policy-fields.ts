import type { PathSegments } from '../core/diagnostics.js'
import { SENSITIVE, type KindName } from '../core/types.js'
import { schemaDocuments, shorthandMember } from '../schema/files.js'
import { placeSensitivity } from '../schema/sensitivity.js'
import { kindEntries } from '../schema/kinds.js'
import { childOf, placeAt, type SchemaPlace } from '../schema/refs.js'
import { closest, levenshtein } from './schema-errors.js'

/** A field a rule names that the resource does not have, close to one it has: a misspelling. */
export interface MisspeltField {
  /** Where the name is written in the rule's schema. */
  path: PathSegments
  /** Whether `path` is a key (`properties`) rather than a value (`required`). */
  key: boolean
  /** The field as the resource's shape has it: `site.nmae`, `labels[].nme`. */
  field: string
  /** The field it likely meant: `site.name`. */
  meant: string
  /** The name is a field rules see at the resource's top level, not here (`site.api_scan_settings`). */
  atTop?: boolean
  /** The name is the service's at a place rules see only as the YAML writes it (`scanning_agent` as `{id}`): what they see there, and where. */
  only?: { place: string; members: string[] }
  /** Not a name but a value the rule compares `field` with (`const`, `enum`), which the field never has: `meant` is the value it nearly is. */
  value?: string
  /** Not a name but a keyword about the content of `field`, a secret rules see only as `(sensitive)`. */
  secretKeyword?: string
  /**
   * Not a name but a keyword about a text (`const: production`, `pattern`) where rules see an object
   * the YAML may write as a text (a label as `{name, color}`): the keyword, what it is written with,
   * the object's members, and the member the text stands for (`name`).
   */
  asText?: { keyword: string; value: unknown; members: string[]; member: string; silent: boolean }
}

/** The places of the kind's schemas a part of a rule applies to: what the YAML writes, and what the service answers. */
interface Places {
  request: readonly SchemaPlace[]
  response: readonly SchemaPlace[]
  /** A place in the YAML's shorthand form (SHORTHAND): rules see the request's members only. */
  shorthand?: boolean
}

/**
 * A place the YAML may write in a shorthand (a label as its name, a team or an agent as `{id}` or
 * `{name}`): the kind's projection gives rules exactly the request's members there (labels
 * `{name, color}`, teams and the scanning agent `{id}`), never the service's others.
 */
const SHORTHAND = 'x-config-shorthand'

/** Keywords whose schemas apply to the same value. */
const SAME_VALUE = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else']
/** Keywords whose schemas apply to a list's items. */
const ITEMS = ['items', 'additionalItems', 'contains']

/**
 * The field names a rule writes under `properties` and `required` that no schema of its kind has
 * at that place, but one it has nearly: `blackout_priod` for `blackout_period`. Such a rule
 * would pass silently for every resource (a schema about an absent property passes), as a
 * misspelt keyword would, which strict mode refuses. A name far from every known one is left
 * alone: the service answers fields its document does not show.
 */
export function misspeltFields(kind: KindName, schema: unknown): MisspeltField[] {
  // schemas/kinds.json: this floor is below the registry of kinds (src/resources/index.ts), which agrees with it.
  const entry = kindEntries().find((candidate) => candidate.kind === kind)
  if (!entry) return []
  const request = placeAt(schemaDocuments, entry.request)
  const roots: Places = { request: [request], response: [placeAt(schemaDocuments, entry.response)] }
  const found: MisspeltField[] = []
  walk(schema, roots, [], '', found, 0, { request: new Set(namesOf([request])), root: schema, followed: new Set() })
  // A definition reached through two references is reported once, where it is written.
  const seen = new Set<string>()
  return found.filter((field) => {
    const key = JSON.stringify(field.path)
    return seen.has(key) ? false : (seen.add(key), true)
  })
}

/**
 * What the walk knows of the YAML's shape: the names of its top level. The service answers some
 * fields elsewhere than the YAML writes them (a target's `api_scan_settings` inside `site`); the
 * kind's projection moves them to where the request schema has them, so rules see them there.
 */
interface Shape {
  request: ReadonlySet<string>
  /** The part of the rule being walked (`when` or `require`): what a local `$ref` points into. */
  root: unknown
  /** The references already followed, each at the field it was followed at (a schema may refer to itself). */
  followed: Set<string>
}

/** Names shorter than this are taken for a misspelling only a letter away from a field. */
const MIN_LENGTH = 4

/** Rules nest a few levels; a deeper schema is not looked into. */
const MAX_DEPTH = 32

function walk(schema: unknown, places: Places, path: PathSegments, field: string, found: MisspeltField[], depth: number, shape: Shape): void {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema) || depth > MAX_DEPTH) return
  const rule = schema as Record<string, unknown>
  // The same place stays in its shorthand form under `allOf`, `not`, a `$ref`…: the keywords below walk `places` as they are.
  if (!places.shorthand && places.request.some((place) => Object.hasOwn(place.schema, SHORTHAND))) places = { ...places, shorthand: true }
  if (places.shorthand) {
    const members = [...namesOf(places.request)]
    const answered = namesOf(places.response)
    walkNames(rule, path, (name, at, key) => {
      if (answered.has(name) && !members.includes(name)) found.push({ path: at, key, field: join(field, name), meant: '', only: { place: field, members } })
    })
    const member = places.request.map((place) => shorthandMember(place.schema)).find((name) => name !== undefined)
    if (member !== undefined) for (const [keyword, silent] of textKeywords(rule)) found.push({ path: [...path, keyword], key: true, field, meant: '', asText: { keyword, value: rule[keyword], members, member, silent } })
  }
  let names: Set<string> | undefined
  const check = (name: string, at: PathSegments, key: boolean) => {
    const known = (names ??= namesOf(places.shorthand ? places.request : [...places.request, ...places.response]))
    // Known here only as the service answers it, and written by the YAML at the top level: rules see it there.
    if (known.has(name) && field !== '' && !field.includes('[]') && shape.request.has(name) && !namesOf(places.request).has(name) && !places.shorthand && places.response.length > 0) {
      found.push({ path: at, key, field: join(field, name), meant: name, atTop: true })
      return
    }
    // A short name is near too many (`ip` is a letter from `id`): a name of two letters is never
    // taken for a misspelling, one of three only a letter away from a field (`nme`, `idd`).
    if (known.size === 0 || known.has(name) || name.length < 3) return
    const meant = closest(name, [...known])
    if (meant !== undefined && name.length < MIN_LENGTH && levenshtein(name.toLowerCase(), meant.toLowerCase()) > 1) return
    if (meant !== undefined) found.push({ path: at, key, field: join(field, name), meant: join(field, meant) })
  }
  walkNames(rule, path, check)
  if (field !== '') for (const value of misspeltValues(rule, places, path)) found.push({ ...value, field })
  if (field !== '' && isAlwaysSecret(field, places)) for (const keyword of contentKeywords(rule)) found.push({ path: [...path, keyword], key: true, field, meant: '', secretKeyword: keyword })
  const properties = rule.properties
  if (properties !== null && typeof properties === 'object' && !Array.isArray(properties)) {
    for (const [name, sub] of Object.entries(properties)) walk(sub, children(places, 'properties', name), [...path, 'properties', name], join(field, name), found, depth + 1, shape)
  }
  for (const keyword of SAME_VALUE) {
    const value = rule[keyword]
    if (value === undefined) continue
    if (Array.isArray(value)) value.forEach((sub, i) => walk(sub, places, [...path, keyword, i], field, found, depth + 1, shape))
    else walk(value, places, [...path, keyword], field, found, depth + 1, shape)
  }
  // `dependencies: {name: schema}` applies to the same value (its names, and `{name: [other, …]}`'s, are walkNames').
  const dependencies = rule.dependencies
  if (dependencies !== null && typeof dependencies === 'object' && !Array.isArray(dependencies)) {
    for (const [name, sub] of Object.entries(dependencies)) if (!Array.isArray(sub)) walk(sub, places, [...path, 'dependencies', name], field, found, depth + 1, shape)
  }
  // A local reference (`#/definitions/window`): what it points to applies here, and is reported where it is written.
  const target = typeof rule.$ref === 'string' ? pointedTo(shape.root, rule.$ref) : undefined
  if (target) {
    const followed = `${rule.$ref}\u0000${field}`
    if (!shape.followed.has(followed)) {
      shape.followed.add(followed)
      walk(target.schema, places, target.path, field, found, depth + 1, shape)
    }
  }
  for (const keyword of ITEMS) {
    const value = rule[keyword]
    if (value === undefined) continue
    const items = children(places, 'items')
    if (Array.isArray(value)) value.forEach((sub, i) => walk(sub, items, [...path, keyword, i], `${field}[]`, found, depth + 1, shape))
    else walk(value, items, [...path, keyword], `${field}[]`, found, depth + 1, shape)
  }
}

/**
 * The values a rule compares a field with (`const`, `enum`) that the field never has, but nearly
 * has: `state: {const: archived}` for `ARCHIVED`. Such a comparison never holds, so a `when` never
 * selects and a `require` never passes, silently. Only where the kind's schemas list the field's
 * values; a value far from all of them is left alone, as a name is (the service may answer others).
 */
function misspeltValues(rule: Record<string, unknown>, places: Places, path: PathSegments): Array<Omit<MisspeltField, 'field'>> {
  const allowed = [...places.request, ...places.response].flatMap((place) => (Array.isArray(place.schema.enum) ? place.schema.enum.filter((v): v is string => typeof v === 'string') : []))
  if (allowed.length === 0) return []
  const found: Array<Omit<MisspeltField, 'field'>> = []
  const consider = (value: unknown, at: PathSegments) => {
    if (typeof value !== 'string' || allowed.includes(value)) return
    const meant = closest(value, allowed)
    if (meant !== undefined) found.push({ path: at, key: false, meant, value })
  }
  if (Object.hasOwn(rule, 'const')) consider(rule.const, [...path, 'const'])
  if (Array.isArray(rule.enum)) rule.enum.forEach((value, i) => consider(value, [...path, 'enum', i]))
  return found
}

/**
 * The keywords of a schema about a text, where rules see an object (a label, a team, an agent): a
 * comparison with a text (`const`, `enum`, `type`) never holds there, and a keyword about a text's
 * content (`pattern`, a length, `format`) checks nothing (`silent`: it passes every value).
 */
function textKeywords(rule: Record<string, unknown>): Array<[string, boolean]> {
  const found: Array<[string, boolean]> = []
  if (typeof rule.const === 'string') found.push(['const', false])
  if (Array.isArray(rule.enum) && rule.enum.some((value) => typeof value === 'string')) found.push(['enum', false])
  const types = Array.isArray(rule.type) ? rule.type : [rule.type]
  if (types.includes('string') && !types.includes('object')) found.push(['type', false])
  for (const keyword of ['pattern', 'minLength', 'maxLength', 'format']) if (Object.hasOwn(rule, keyword)) found.push([keyword, true])
  return found
}

/** Keywords about a text's content: on a secret, which rules see as `(sensitive)`, they check those 11 characters. */
const CONTENT_KEYWORDS = ['minLength', 'maxLength', 'pattern', 'format', 'const', 'enum']

/** Whether a field is a secret whatever its resource says (a password, a place the schemas mark sensitive): rules always see `(sensitive)` there. */
function isAlwaysSecret(field: string, places: Places): boolean {
  const member = field.slice(field.lastIndexOf('.') + 1)
  if (member.endsWith('[]')) return false
  return places.request.length > 0 && places.request.some((place) => placeSensitivity(member, [], place.schema['x-sensitive'] === true).always)
}

/**
 * What a rule sees of a secret: `(sensitive)` for a text, but null as null (after-apply.ts masks
 * texts only), so `password: {const: null}` ("no password stored on the service") checks what it says.
 */
const seenOfSecret = (value: unknown): boolean => value === SENSITIVE || value === null

/** The content keywords a schema writes, but a comparison with what rules see of a secret itself. */
function contentKeywords(rule: Record<string, unknown>): string[] {
  return CONTENT_KEYWORDS.filter((keyword) => {
    if (!Object.hasOwn(rule, keyword)) return false
    if (keyword === 'const') return !seenOfSecret(rule.const)
    if (keyword === 'enum') return !(Array.isArray(rule.enum) && rule.enum.every(seenOfSecret))
    return true
  })
}

/**
 * The schema a reference into the rule itself names within `root`, and its path there: a local
 * JSON pointer (`#`, `#/definitions/a`), the same written from the rule's own `$id`
 * (`https://acme.example/rule#/definitions/a`), or a plain name a subschema's `$id` gives
 * (`#window`), as Ajv resolves them; undefined for any other reference.
 */
function pointedTo(root: unknown, written: string): { schema: unknown; path: PathSegments } | undefined {
  const ref = withinRule(root, written)
  if (ref === undefined) return undefined
  if (/^#[A-Za-z][\w.:-]*$/.test(ref)) return namedBy(root, ref, [])
  if (ref.length > 1 && ref[1] !== '/') return undefined
  let schema = root
  const path: (string | number)[] = []
  for (const encoded of ref.length > 1 ? ref.slice(2).split('/') : []) {
    let segment: string
    try {
      segment = decodeURIComponent(encoded).replace(/~1/g, '/').replace(/~0/g, '~')
    } catch {
      return undefined
    }
    if (Array.isArray(schema)) {
      if (!/^(0|[1-9]\d*)$/.test(segment) || Number(segment) >= schema.length) return undefined
      path.push(Number(segment))
      schema = schema[Number(segment)]
    } else if (schema !== null && typeof schema === 'object' && Object.hasOwn(schema, segment)) {
      path.push(segment)
      schema = (schema as Record<string, unknown>)[segment]
    } else return undefined
  }
  return { schema, path }
}

/** A reference as its fragment (`#…`) when it names the rule itself, read from the rule's `$id`; undefined when it names another document. */
function withinRule(root: unknown, ref: string): string | undefined {
  if (ref.startsWith('#')) return ref
  const id = root !== null && typeof root === 'object' ? (root as Record<string, unknown>).$id : undefined
  if (typeof id !== 'string') return undefined
  try {
    const base = new URL(id)
    const url = new URL(ref, base)
    return url.href.split('#')[0] === base.href.split('#')[0] ? url.hash || '#' : undefined
  } catch {
    return undefined
  }
}

/** Keywords whose values are data, not schemas: an `$id` there names nothing. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples'])

/** The subschema whose `$id` is the plain name `#name`, and its path. */
function namedBy(node: unknown, name: string, path: PathSegments): { schema: unknown; path: PathSegments } | undefined {
  if (node === null || typeof node !== 'object' || path.length > MAX_DEPTH) return undefined
  if (!Array.isArray(node) && (node as Record<string, unknown>).$id === name) return { schema: node, path }
  for (const [key, value] of Object.entries(node)) {
    if (!Array.isArray(node) && DATA_KEYWORDS.has(key)) continue
    const found = namedBy(value, name, [...path, Array.isArray(node) ? Number(key) : key])
    if (found) return found
  }
  return undefined
}

const join = (field: string, name: string) => (field ? `${field}.${name}` : name)

/** The names a schema writes at its own level: under `properties`, in `required`, as `dependencies`' keys and lists. */
function walkNames(rule: Record<string, unknown>, path: PathSegments, visit: (name: string, at: PathSegments, key: boolean) => void): void {
  const properties = rule.properties
  if (properties !== null && typeof properties === 'object' && !Array.isArray(properties)) for (const name of Object.keys(properties)) visit(name, [...path, 'properties', name], true)
  if (Array.isArray(rule.required)) rule.required.forEach((name, i) => typeof name === 'string' && visit(name, [...path, 'required', i], false))
  const dependencies = rule.dependencies
  if (dependencies !== null && typeof dependencies === 'object' && !Array.isArray(dependencies)) {
    for (const [name, sub] of Object.entries(dependencies)) {
      visit(name, [...path, 'dependencies', name], true)
      if (Array.isArray(sub)) sub.forEach((other, i) => typeof other === 'string' && visit(other, [...path, 'dependencies', name, i], false))
    }
  }
}

/** The member names the schemas give an object here (with `id`, which every resource's shape has at its top). */
function namesOf(places: readonly SchemaPlace[]): Set<string> {
  const names = new Set<string>()
  for (const place of places) {
    const properties = place.schema.properties
    if (properties !== null && typeof properties === 'object') for (const name of Object.keys(properties)) names.add(name)
    // A place written as a choice (a label: a name, or a mapping) has the members of its choices.
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const choices = place.schema[keyword]
      if (Array.isArray(choices)) choices.forEach((_, i) => namesOf(placesBelow([place], keyword, String(i))).forEach((name) => names.add(name)))
    }
  }
  return names
}

function children(places: Places, ...keys: string[]): Places {
  return { request: placesBelow(places.request, ...keys), response: placesBelow(places.response, ...keys) }
}

function placesBelow(places: readonly SchemaPlace[], ...keys: string[]): SchemaPlace[] {
  const out: SchemaPlace[] = []
  for (const place of places) {
    const child = childOf(schemaDocuments, place, ...keys)
    if (child) out.push(child)
    else if (keys[0] === 'properties') {
      // A member of a choice (a reference: an id or a mapping {id}).
      for (const keyword of ['anyOf', 'oneOf'] as const) {
        const choices = place.schema[keyword]
        if (Array.isArray(choices)) choices.forEach((_, i) => out.push(...placesBelow(placesBelow([place], keyword, String(i)), ...keys)))
      }
    }
  }
  return out
}
