import type { JsonObject } from '../core/types.js'
import type { ResourceKind } from './kind.js'
import { nullableList } from './normalize.js'
import { getPath, isObject, pick, setPath, withoutNulls } from '../core/json.js'
import { requestMembersAt } from '../schema/request-schema.js'
import type { SchemaFile } from '../schema/files.js'
import { isObfuscated } from '../schema/sensitivity.js'

/**
 * The value to send for one unit: the declared value, filled from live where the request needs
 * more than the YAML says (the other members of an object sent whole, the undeclared members of
 * a list item the YAML keeps). A list is replaced whole: a live item's member the response schema
 * does not know (the service added it since) goes back as answered, so that the list sent does not
 * reset it; not a value the service hides (OBFUSCATED_…), which cannot be read back.
 */
export function unitValue(kind: ResourceKind, unit: string, desired: JsonObject, live: JsonObject): unknown {
  const path = unit.split('.')
  const rule = kind.rules[unit]
  const declared = getPath(desired, path)
  const current = getPath(live, path)
  const members = requestMembersAt(kind.requestSchema, path)
  const fromLive = (item: JsonObject) => (members ? pick(withoutNulls(item), members) : {})

  if (rule?.type === 'keyed' && Array.isArray(declared)) {
    const known = requestMembersAt(kind.responseValidator as SchemaFile, path)
    const added = (item: JsonObject) =>
      known && members ? Object.fromEntries(Object.entries(item).filter(([key, value]) => !known.includes(key) && !members.includes(key) && !isObfuscated(value))) : {}
    const liveItems = new Map(nullableList(current).filter(isObject).map((item) => [String(item[rule.key]), item]))
    return declared.map((item: JsonObject) => {
      const existing = liveItems.get(String(item[rule.key]))
      return existing ? { ...added(existing), ...fromLive(existing), ...item } : item
    })
  }
  if (rule?.type === 'object' && rule.sendWhole && isObject(declared)) {
    return { ...(isObject(current) ? fromLive(current) : {}), ...declared }
  }
  return declared
}

/** A JSON merge patch holding only the given units (nested objects carry only their changed members). */
export function mergePatchBody(kind: ResourceKind, units: string[], desired: JsonObject, live: JsonObject): JsonObject {
  const body: JsonObject = {}
  for (const unit of units) setPath(body, unit.split('.'), unitValue(kind, unit, desired, live))
  return body
}
