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
export function defaultsFor(documents: Documents, file: string, written: JsonObject): JsonObject {
  return defaultsAt(documents, placeAt(documents, file), written)
}

function defaultsAt(documents: Documents, place: SchemaPlace, written: JsonObject): JsonObject {
  const out: JsonObject = {}
  const properties = place.schema.properties
  if (!isObject(properties)) return out
  for (const name of Object.keys(properties)) {
    const member = childOf(documents, place, 'properties', name)
    if (!member) continue
    const value = written[name]
    if (isObject(value)) {
      const inner = defaultsAt(documents, member, value as JsonObject)
      if (Object.keys(inner).length > 0) out[name] = inner
    } else if (!Object.hasOwn(written, name) && Object.hasOwn(member.schema, 'default')) {
      out[name] = structuredClone(member.schema.default)
    }
  }
  return out
}
