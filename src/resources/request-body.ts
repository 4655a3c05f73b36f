import type { JsonObject } from '../core/types.js'
import type { ResourceKind } from './kind.js'
import { nullableList } from './normalize.js'
import { getPath, isObject, pick, setPath, withoutNulls } from '../core/json.js'
import { requestMembersAt } from '../schema/request-schema.js'

/**
 * The value to send for one unit: the declared value, filled from live where the request needs
 * more than the YAML says (the other members of an object sent whole, the undeclared members of
 * a list item the YAML keeps).
 */
export function unitValue(kind: ResourceKind, unit: string, desired: JsonObject, live: JsonObject): unknown {
  const path = unit.split('.')
  const rule = kind.rules[unit]
  const declared = getPath(desired, path)
  const current = getPath(live, path)
  const members = requestMembersAt(kind.requestSchema, path)
  const fromLive = (item: JsonObject) => (members ? pick(withoutNulls(item), members) : {})

  if (rule?.type === 'keyed' && Array.isArray(declared)) {
    const liveItems = new Map(nullableList(current).filter(isObject).map((item) => [String(item[rule.key]), item]))
    return declared.map((item: JsonObject) => {
      const existing = liveItems.get(String(item[rule.key]))
      return existing ? { ...fromLive(existing), ...item } : item
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
