import { createHash } from 'node:crypto'
import { Redaction } from '../core/redaction.js'
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

/**
 * A request body as the request log keeps it: sensitive members replaced, and then the whole
 * text passed through scansync's one redaction step, so that a secret repeated in another
 * member (a description quoting a password) is gone too.
 */
export function redact(body: unknown): unknown {
  const secrets: string[] = []
  const replaced = replaceSensitive(
    body,
    (secret) => {
      if (typeof secret === 'string') secrets.push(secret)
      return secret === null || secret === undefined ? secret : REDACTED
    },
    REDACTED_ALWAYS,
  )
  if (secrets.length === 0) return replaced
  const redaction = new Redaction()
  redaction.add(secrets, REDACTED)
  try {
    return JSON.parse(redaction.redact(JSON.stringify(replaced))) as unknown
  } catch {
    // A secret that matched the JSON's own punctuation: the members replaced are what is kept.
    return replaced
  }
}
