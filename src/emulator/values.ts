import { createHash } from 'node:crypto'
import type { JsonObject } from '../core/types.js'
import type { UserRef } from '../schema/generated.js'

import { isObject } from '../core/json.js'

export type { JsonObject }
export { isObject }

/**
 * `changes` merged into `base` as a PATCH does: objects merge member by member, arrays and
 * scalars replace, null sets null. Returns a new value; neither input is modified.
 */
export function deepMerge(base: unknown, changes: unknown): unknown {
  if (!isObject(changes)) return structuredClone(changes)
  const out: JsonObject = isObject(base) ? { ...base } : {}
  for (const key of Object.keys(changes)) {
    if (key === '__proto__') continue
    out[key] = deepMerge(out[key], changes[key])
  }
  return out
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

/** A Base58 identifier derived from its namespace and key, so that seeds give the same ids every run. */
export function stableId(namespace: string, key: string, length = 12): string {
  const bytes = createHash('sha256').update(namespace).update('\0').update(key).digest()
  let id = ''
  for (let i = 0; i < length; i++) id += BASE58[bytes[i] % 58]
  return id
}

/** The user the API token belongs to: author of every write through the interface. */
export const API_USER: NonNullable<UserRef> = { id: 'ApiUser7kQ3z', email: 'api-token@example.com', name: 'API token' }

/** The person who changes things in the web UI (seed data and Emulator.mutate). */
export const WEB_USER: NonNullable<UserRef> = { id: 'WebUser9mX4c', email: 'alice@example.com', name: 'Alice Operator' }

/** The `changed` of seed data that does not give one. */
export const SEED_TIME = '2025-06-02T09:30:00.000000Z'

/** Timestamps as the service writes them (microseconds, UTC), strictly increasing. */
export class Clock {
  private last = 0

  now(): string {
    let micros = Date.now() * 1000
    if (micros <= this.last) micros = this.last + 1
    this.last = micros
    const iso = new Date(Math.floor(micros / 1000)).toISOString()
    return iso.slice(0, -1) + String(micros % 1000).padStart(3, '0') + 'Z'
  }
}

/** HH:MM or HH:MM:SS as the service stores a time of day: HH:MM:SS. */
export function timeOfDay(value: unknown): unknown {
  return typeof value === 'string' && /^\d\d:\d\d$/.test(value) ? value + ':00' : value
}

export function hostOf(url: unknown): string {
  if (typeof url !== 'string') return ''
  try {
    return new URL(url).host
  } catch {
    return ''
  }
}

/** A UUID-shaped value derived from a key (verification tokens and the like). */
export function stableUuid(key: string): string {
  const h = createHash('sha256').update(key).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}
