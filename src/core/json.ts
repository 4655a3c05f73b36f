import type { JsonObject } from './types.js'

export const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

export function getPath(value: unknown, path: readonly string[]): unknown {
  let current = value
  // An indexed loop: this runs for every declared resource, mostly in code V8 has not optimised,
  // where each step of `for…of` allocates an iterator's result.
  for (let i = 0; i < path.length; i++) {
    const key = path[i]
    if (!isObject(current) || !Object.hasOwn(current, key)) return undefined
    current = current[key]
  }
  return current
}

/** Sets a value, creating plain objects on the way. Own properties only: never a prototype. */
export function setPath(target: JsonObject, path: readonly string[], value: unknown): void {
  let current = target
  for (const key of path.slice(0, -1)) {
    if (!isObject(current[key]) || !Object.hasOwn(current, key)) define(current, key, {})
    current = current[key] as JsonObject
  }
  define(current, path[path.length - 1], value)
}

function define(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

/** The members of `value` that are not null or undefined. */
export function withoutNulls(value: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined))
}

export function pick(value: JsonObject, keys: Iterable<string>): JsonObject {
  const out: JsonObject = {}
  for (const key of keys) if (Object.hasOwn(value, key)) define(out, key, value[key])
  return out
}
