import { createHash } from 'node:crypto'
import { isObject, type JsonObject } from './values.js'
import { sensitiveMemberNames } from '../schema/sensitive-fields.js'

/**
 * A copy of `value` in which every member `<field>` whose sibling `<field>_is_sensitive` is
 * true, or whose name is in `always`, is passed through `replace`.
 */
export function replaceSensitive(value: unknown, replace: (secret: unknown) => unknown, always: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => replaceSensitive(item, replace, always))
  if (!isObject(value)) return value
  const out: JsonObject = {}
  for (const key of Object.keys(value)) {
    if (key === '__proto__') continue
    const member = value[key]
    out[key] = always.has(key) || value[`${key}_is_sensitive`] === true ? replace(member) : replaceSensitive(member, replace, always)
  }
  return out
}

/** The members the schemas mark `x-sensitive`. */
const OBFUSCATED_ALWAYS: ReadonlySet<string> = sensitiveMemberNames()

/** `OBFUSCATED_<hash>`: the same value gives the same token; the value cannot be read back. */
export function obfuscatedToken(secret: string): string {
  return 'OBFUSCATED_' + createHash('sha256').update('scansync-emulator\0').update(secret).digest('hex').slice(0, 32)
}

/** A response as an account with secrets obfuscation answers it. */
export function obfuscate<T>(resource: T): T {
  return replaceSensitive(
    resource,
    (secret) => (typeof secret === 'string' && secret !== '' ? obfuscatedToken(secret) : secret),
    OBFUSCATED_ALWAYS,
  ) as T
}

export const REDACTED = '(redacted)'

/** Members redacted from the request log even when a request does not flag them. */
const REDACTED_ALWAYS: ReadonlySet<string> = new Set(['otp_secret', 'password', 'api_login_payload', 'api_login_payload_secondary'])

/** A request body as the request log keeps it. */
export function redact(body: unknown): unknown {
  return replaceSensitive(body, (secret) => (secret === null || secret === undefined ? secret : REDACTED), REDACTED_ALWAYS)
}
