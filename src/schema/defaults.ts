import { isObject } from '../core/json.js'
import type { JsonObject } from '../core/types.js'
import { childOf, placeAt, type Documents, type SchemaPlace } from './refs.js'

/**
 * The values the interface document gives as defaults (`default`) for what a request leaves out,
 * at the top of the request and inside each object the request writes: what the service holds
 * after a creation that did not write them (a target created without `type` is `single`). An
 * object the request does not write gets none of its members' defaults: the service may create
 * it empty or not at all (a blackout period stays null).
 */
export function defaultsFor(documents: Documents, file: string, written: JsonObject, keyOf: (path: string) => string | undefined = () => undefined): JsonObject {
  return defaultsAt(documents, placeAt(documents, file), written, '', keyOf)
}

function defaultsAt(documents: Documents, place: SchemaPlace, written: JsonObject, prefix: string, keyOf: (path: string) => string | undefined): JsonObject {
  const out: JsonObject = {}
  for (const { name, place: member } of membersOf(documents, place)) {
    const value = written[name]
    const path = prefix ? `${prefix}.${name}` : name
    if (isObject(value)) {
      const inner = defaultsAt(documents, member, value as JsonObject, path, keyOf)
      if (Object.keys(inner).length > 0) out[name] = inner
    } else if (Array.isArray(value)) {
      // The items of a list the YAML writes are objects it writes too (a header without
      // `value_is_sensitive`, which the service holds as false): each gets its members' defaults,
      // named by the member the kind matches a list's items on (`name`), so that laying the
      // declared items over these (after-apply.ts) finds them. Only that member of the item is
      // copied: a value of the YAML (a header's) stays where the YAML writes it.
      const key = keyOf(path)
      const items = key === undefined ? undefined : childOf(documents, member, 'items')
      if (key === undefined || !items) continue
      const filled: JsonObject[] = []
      for (const item of value) {
        if (!isObject(item) || !Object.hasOwn(item, key)) continue
        const inner = defaultsAt(documents, items, item as JsonObject, path, keyOf)
        if (Object.keys(inner).length > 0) filled.push({ ...inner, [key]: item[key] })
      }
      if (filled.length > 0) out[name] = filled
    } else if (!Object.hasOwn(written, name) && Object.hasOwn(member.schema, 'default')) {
      out[name] = structuredClone(member.schema.default)
    }
  }
  return out
}

interface Member {
  name: string
  place: SchemaPlace
}

/**
 * A place's members, `$ref`s followed, by its schema: worked out once per run. Resolved anew for
 * every target to create, they took some 0.1 ms a target (450 ms of a plan creating 4,200 with
 * rules); an object is resolved only once a request writes it, as before (a schema may refer to itself).
 */
const members = new WeakMap<object, Member[]>()

function membersOf(documents: Documents, place: SchemaPlace): Member[] {
  const known = members.get(place.schema)
  if (known) return known
  const properties = place.schema.properties
  const found: Member[] = []
  if (isObject(properties)) {
    for (const name of Object.keys(properties)) {
      const member = childOf(documents, place, 'properties', name)
      if (member) found.push({ name, place: member })
    }
  }
  members.set(place.schema, found)
  return found
}
