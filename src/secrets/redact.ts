import type { DesiredResource, JsonObject } from '../core/types.js'
import type { ResourceKind } from '../resources/kind.js'
import { schemaDocuments } from '../schema/files.js'
import { childOf, placeAt, type SchemaPlace } from '../schema/refs.js'
import { variableValues } from '../config/interpolate.js'
import { isObject } from '../core/json.js'
import { KINDS } from '../resources/index.js'
import { holdsUrlPassword, isObfuscated, isSensitiveMember, urlPasswords } from '../schema/sensitivity.js'

export interface DeclaredSecret {
  value: string
  /** Dotted place inside the resource's fields, list indexes in brackets (`site.headers[0].value`). */
  place: string
  /** The same place as path segments (for `DesiredResource.locate`). */
  segments: Array<string | number>
  /** True when the value came from `${…}` (a saved plan keeps the reference). */
  fromVariable: boolean
}

/** `site.headers[0].value`: the dotted place of `key` under `segments`, list indexes in brackets. */
function placeOf(segments: ReadonlyArray<string | number>, key: string): string {
  let place = ''
  for (const segment of segments) place = typeof segment === 'number' ? `${place}[${segment}]` : place === '' ? segment : `${place}.${segment}`
  return place === '' ? key : `${place}.${key}`
}

/** `site.headers.value`: the place without list indexes, as kinds name their fields. */
function rulePathOf(segments: ReadonlyArray<string | number>, key: string): string {
  let path = ''
  for (const segment of segments) if (typeof segment === 'string') path = path === '' ? segment : `${path}.${segment}`
  return path === '' ? key : `${path}.${key}`
}

const lastMembersCache = new WeakMap<readonly string[], ReadonlySet<string>>()
/** The member names the kind's sensitive fields end with (`otp_secret` of `site.otp_secret`). */
function lastMembersOf(fields: readonly string[]): ReadonlySet<string> {
  let members = lastMembersCache.get(fields)
  if (!members) lastMembersCache.set(fields, (members = new Set(fields.map((field) => field.slice(field.lastIndexOf('.') + 1)))))
  return members
}

/** Every secret a declared resource holds, as the one sensitivity rule (schema/sensitivity.ts) decides. */
export function declaredSecrets(resource: DesiredResource): DeclaredSecret[] {
  return secretsIn(resource.fields, resource.templates, KINDS[resource.kind].sensitiveFields)
}

/**
 * The values a declared resource takes from variables, whole, wherever they are (a member, a list
 * item, an entry's name): the secrets state records them (by HMAC) after an apply.
 */
export function variableValuesOf(resource: Pick<DesiredResource, 'fields' | 'templates'>): string[] {
  const found = new Set<string>()
  for (const place of resource.templates.keys()) {
    let node: unknown = resource.fields
    for (const [, member, index] of place.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
      node = index !== undefined ? (Array.isArray(node) ? node[Number(index)] : undefined) : isObject(node) ? node[member!] : undefined
    }
    // An empty value is no secret (`${NAME:-}`): the redaction ignores it, and so does the state.
    if (typeof node === 'string' && node !== '') found.add(node)
  }
  return [...found]
}

/** Every text a value holds, at any depth (a resource's answer: what it still holds). */
export function textsOf(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') found.push(value)
  else if (Array.isArray(value)) for (const item of value) textsOf(item, found)
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) textsOf(item, found)
  return found
}

/**
 * The secrets a live resource (in the YAML's shape: its kind's projection) holds in clear, as the
 * same rule decides: a service that does not obfuscate answers passwords and flagged values as
 * they are, and another field may quote them (a description naming the login). Only the places
 * the request schema says can hold one are looked at (a password, a field marked sensitive, a
 * member with an `_is_sensitive` flag, an entry's value, and the password of a URL where the
 * schema says `format: uri`), a few per resource. `urlPasswords: false` leaves the URLs' out: a
 * staging site's is often a word (`staging`) that declared texts hold for other reasons.
 */
export function liveSecrets(kind: Pick<ResourceKind, 'requestSchema' | 'sensitiveFields'>, live: JsonObject, options: { urlPasswords?: boolean } = {}): string[] {
  const found: string[] = []
  const urls = options.urlPasswords ?? true
  for (const place of secretPlaces(kind)) if (urls || !place.url) collect(live, place, 0, kind.sensitiveFields, found)
  return found
}

/** liveSecrets in two groups: the secrets held in clear, and the URLs' passwords. */
export function liveSecretGroups(kind: Pick<ResourceKind, 'requestSchema' | 'sensitiveFields'>, live: JsonObject): { clear: string[]; urls: string[] } {
  const clear: string[] = []
  const urls: string[] = []
  for (const place of secretPlaces(kind)) collect(live, place, 0, kind.sensitiveFields, place.url ? urls : clear)
  return { clear, urls }
}

/**
 * Whether a resource's name, as plans head it, holds a secret: a URL with a password, or a secret
 * the live resource holds in clear (its own URL's password among them, unless the YAML writes the
 * name: a staging site's password is often a word, `staging`, that a name holds for its own reason).
 */
export function nameHoldsSecret(kind: Pick<ResourceKind, 'requestSchema' | 'sensitiveFields'>, live: JsonObject, name: string, options: { declared?: boolean } = {}): boolean {
  if (holdsUrlPassword(name)) return true
  const { clear, urls } = liveSecretGroups(kind, live)
  return clear.some((secret) => name.includes(secret)) || (!options.declared && urls.some((secret) => name.includes(secret)))
}

/** A live secret shorter than this is not looked for inside other values (a one-letter one is in every text). */
export const QUOTABLE_LENGTH = 4

interface SecretPlace {
  /** Members, and ITEMS for each list on the way. */
  segments: ReadonlyArray<string | typeof ITEMS>
  rulePath: string
  /** A URL (`format: uri`): the secret is its password, if it has one. */
  url?: boolean
}
const ITEMS = Symbol('items')

function collect(node: unknown, place: SecretPlace, at: number, sensitiveFields: readonly string[], found: string[]): void {
  if (node === null || typeof node !== 'object') return
  const { segments, rulePath } = place
  const step = segments[at]!
  if (step === ITEMS) {
    if (Array.isArray(node)) for (const item of node) collect(item, place, at + 1, sensitiveFields, found)
    return
  }
  if (Array.isArray(node) || !Object.hasOwn(node, step)) return
  const holder = node as JsonObject
  const value = holder[step]
  if (at < segments.length - 1) return collect(value, place, at + 1, sensitiveFields, found)
  if (typeof value !== 'string') return
  if (place.url) {
    for (const password of urlPasswords(value)) if (password.length >= QUOTABLE_LENGTH) found.push(password)
  } else if (value.length >= QUOTABLE_LENGTH && !isObfuscated(value) && isSensitiveMember(holder, step, rulePath, false, sensitiveFields)) found.push(value)
}

const placesByKind = new WeakMap<object, SecretPlace[]>()

function secretPlaces(kind: Pick<ResourceKind, 'requestSchema' | 'sensitiveFields'>): SecretPlace[] {
  let places = placesByKind.get(kind)
  if (!places) placesByKind.set(kind, (places = placesIn(placeAt(schemaDocuments, kind.requestSchema), [], '', kind.sensitiveFields, 0)))
  return places
}

/** The places of a request schema that can hold a secret, by the one rule's reasons. */
function placesIn(place: SchemaPlace | undefined, segments: SecretPlace['segments'], rulePath: string, sensitiveFields: readonly string[], depth: number): SecretPlace[] {
  if (!place || depth > 16) return []
  const out: SecretPlace[] = []
  if (place.schema.items !== undefined) out.push(...placesIn(childOf(schemaDocuments, place, 'items'), [...segments, ITEMS], rulePath, sensitiveFields, depth + 1))
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const choices = place.schema[keyword]
    if (Array.isArray(choices)) choices.forEach((_, i) => out.push(...placesIn(childOf(schemaDocuments, place, keyword, String(i)), segments, rulePath, sensitiveFields, depth + 1)))
  }
  const properties = place.schema.properties
  if (properties === null || typeof properties !== 'object') return out
  const names = Object.keys(properties)
  for (const member of names) {
    const here = rulePath ? `${rulePath}.${member}` : member
    const child = childOf(schemaDocuments, place, 'properties', member)
    if (sensitiveFields.includes(here) || member === 'password' || names.includes(`${member}_is_sensitive`) || (member === 'value' && names.includes('name'))) out.push({ segments: [...segments, member], rulePath: here })
    else if (isUrl(child)) out.push({ segments: [...segments, member], rulePath: here, url: true })
    else if (child?.schema.items !== undefined && isUrl(childOf(schemaDocuments, child, 'items'))) out.push({ segments: [...segments, member, ITEMS], rulePath: here, url: true })
    out.push(...placesIn(child, [...segments, member], here, sensitiveFields, depth + 1))
  }
  return out
}

const isUrl = (place: SchemaPlace | undefined): boolean => place?.schema.format === 'uri' || place?.schema.format === 'uri-reference'

function secretsIn(fields: JsonObject, templates: ReadonlyMap<string, string>, sensitiveFields: readonly string[]): DeclaredSecret[] {
  const found: DeclaredSecret[] = []
  const lastMembers = lastMembersOf(sensitiveFields)
  // One stack of segments: this runs over every declared value before the first request, so it
  // spells out a place only for a resource with variables, a member some sensitive field ends
  // with, or a secret found.
  const segments: Array<string | number> = []
  // `unoptimised…`: runs over each resource once; V8's optimising compiler leaves it alone
  // (bin/v8-flags.js). Indexed loops: in code V8 does not optimise, each step of `for…of`
  // allocates an iterator's result.
  const unoptimisedVisit = (node: unknown) => {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i]
        if (item === null || typeof item !== 'object') continue
        segments.push(i)
        unoptimisedVisit(item)
        segments.pop()
      }
    } else if (isObject(node)) {
      const keys = Object.keys(node)
      for (let k = 0; k < keys.length; k++) {
        const key = keys[k]
        const value = node[key]
        if (typeof value === 'string') {
          const here = templates.size > 0 ? placeOf(segments, key) : undefined
          const fromVariable = here !== undefined && templates.has(here)
          const rulePath = lastMembers.has(key) ? rulePathOf(segments, key) : ''
          if (isSensitiveMember(node, key, rulePath, fromVariable, sensitiveFields)) found.push({ value, place: here ?? placeOf(segments, key), segments: [...segments, key], fromVariable })
        } else if (value !== null && typeof value === 'object') {
          segments.push(key)
          unoptimisedVisit(value)
          segments.pop()
        }
      }
    }
  }
  unoptimisedVisit(fields)
  return found
}

/**
 * Every secret value the configuration holds: values from `${…}`, and values whose
 * `<field>_is_sensitive` flag is true; and, in a value written around variables
 * (`Bearer ${API_KEY}`, a JSON payload holding `${CLIENT_SECRET}`), each variable's value by
 * itself: the service may quote it back on its own.
 */
export function secretValues(resources: DesiredResource[]): string[] {
  return [
    ...new Set(
      resources.flatMap((resource) =>
        declaredSecrets(resource).flatMap((secret) => {
          const template = secret.fromVariable ? resource.templates.get(secret.place) : undefined
          return template === undefined ? [secret.value] : [secret.value, ...variableValues(template, secret.value)]
        }),
      ),
    ),
  ]
}

// How secrets are written in a text and replaced there lives in the one redaction step.
export { writtenForms } from '../core/redaction.js'
