/**
 * The one rule that decides whether a value is sensitive. The diff engine, the loader's
 * diagnostics, the redactor's list of declared secrets, import and the emulator all ask it.
 *
 * It sits in schema/ (not secrets/) because the loader and the emulator, which sit below
 * secrets/, must ask it too; it needs nothing but the schemas' `x-sensitive` list, passed in.
 */

import { isCredentialName } from '../core/credential-names.js'
import { comparableUrl, urlPasswordSpans } from '../core/url.js'

export { isCredentialName }

/** How a service with secrets obfuscation answers a sensitive value. */
export const OBFUSCATED_PREFIX = 'OBFUSCATED_'

export const isObfuscated = (value: unknown): value is string => typeof value === 'string' && value.startsWith(OBFUSCATED_PREFIX)

/**
 * Whether a text holds a URL with a password in it (`https://user:password@host/`): a credential
 * whatever field holds it (a description naming a service, a URL the service keeps), so the text
 * is sensitive whole. Read as URL parsers read it (core/url.ts, urlPasswordSpans), a whole value
 * in the form they give it too: `https:/user:pw@host/` (one slash, or a backslash) is
 * https://user:pw@host/ to them, and a plan shows a live value as the service holds it.
 */
export const holdsUrlPassword = (text: string): boolean =>
  // A password needs its `:` and `@`: an e-mail address (an owner) is not parsed, and thrown out, as a URL.
  urlPasswordSpans(text).length > 0 || (text.includes('@') && text.includes(':') && urlPasswordSpans(comparableUrl(text)).length > 0)

/**
 * The passwords of the URLs in a text, as written and percent-decoded: another field may quote
 * one (a description saying "pw is …"), which is then a secret there too. A whole value read as
 * holdsUrlPassword reads it (`https:/user:pw@host/`) gives its password in the form URL parsers give it.
 */
export function urlPasswords(text: string): string[] {
  const found: string[] = []
  let source = text
  let spans = urlPasswordSpans(text)
  if (spans.length === 0 && text.includes('@') && text.includes(':')) spans = urlPasswordSpans((source = comparableUrl(text)))
  for (const [start, end] of spans) {
    const written = source.slice(start, end)
    found.push(written)
    try {
      const decoded = decodeURIComponent(written)
      if (decoded !== written) found.push(decoded)
    } catch {
      // A lone `%`: only the written form can be quoted.
    }
  }
  return found
}

/**
 * Members that hold a secret whatever their flags say (a diagnostic, a plan or a request log
 * never shows a password, even one flagged `password_is_sensitive: false`).
 */
const SECRET_MEMBERS: ReadonlySet<string> = new Set(['password'])

const flagNames = new Map<string, string>()
/** `<member>_is_sensitive`, made once for each member name (a string built for each ask was most of the ask's cost). */
function flagNameOf(member: string): string {
  let name = flagNames.get(member)
  if (name === undefined) flagNames.set(member, (name = `${member}_is_sensitive`))
  return name
}

/** A value and what is known around it. */
export interface ValuePlace {
  /** The member's name in its object, or its index in a list. */
  member: string | number
  /** The dotted path without list indexes (`site.headers.value`), as kinds name their fields. */
  rulePath: string
  /** The objects holding the value, declared and live (their flags and names count). */
  containers?: readonly unknown[]
  /** The value on each side (an obfuscated one counts). */
  values?: readonly unknown[]
  /** The declared value came from `${…}`. */
  fromVariable?: boolean
  /** The paths the schemas mark `x-sensitive` (the kind's `sensitiveFields`). */
  sensitiveFields?: readonly string[]
}

/**
 * Sensitive: a value from `${…}`; a field the schemas mark `x-sensitive`; a member whose
 * `<member>_is_sensitive` sibling is set (anything but false: a flag of the wrong type or null
 * keeps the value out of sight); a password; the `value` of an entry whose `name` marks a
 * credential (`Authorization`, `X-Api-Key`); a value the service answered obfuscated.
 */
export function isSensitive(place: ValuePlace): boolean {
  if (place.fromVariable || (place.rulePath !== '' && place.sensitiveFields?.includes(place.rulePath))) return true
  if (place.values?.some(isObfuscated)) return true
  const member = place.member
  if (typeof member !== 'string') return false
  if (SECRET_MEMBERS.has(member)) return true
  for (const container of place.containers ?? []) if (flaggedIn(container, member)) return true
  return false
}

/**
 * isSensitive for a string member of one declared object, no answered value known: the same
 * rule, asked without building a ValuePlace (the secrets walk asks it for every declared string
 * before the first request, and building the place was half of the walk's time).
 */
export function isSensitiveMember(holder: Record<string, unknown>, member: string, rulePath: string, fromVariable: boolean, sensitiveFields: readonly string[]): boolean {
  if (fromVariable || (rulePath !== '' && sensitiveFields.includes(rulePath))) return true
  return SECRET_MEMBERS.has(member) || flaggedIn(holder, member)
}

/**
 * isSensitive for a string member of an object whose schema place is already known not to be
 * `x-sensitive` and which came from no variable: a password, a member its holder flags, a
 * credential entry's value, an obfuscated value.
 */
export function isSensitiveIn(holder: Record<string, unknown>, member: string, value: string): boolean {
  return isObfuscated(value) || SECRET_MEMBERS.has(member) || flaggedIn(holder, member)
}

/**
 * What the rule can find at one place of a request schema, worked out once for the place: a
 * field marked sensitive or a password always is one; otherwise only the flag its schema gives it,
 * or, for an entry's `value`, the entry's name, can make it one (and an obfuscated value).
 */
export interface PlaceSensitivity {
  readonly always: boolean
  /** `<member>_is_sensitive` when the schema has it beside the member. */
  readonly flag: string | undefined
  readonly credentialValue: boolean
}

/** The place `member` among `siblings` (the names its object's schema gives), `marked` when the schemas mark it `x-sensitive`. */
export function placeSensitivity(member: string, siblings: readonly string[], marked: boolean): PlaceSensitivity {
  const flag = flagNameOf(member)
  return { always: marked || SECRET_MEMBERS.has(member), flag: siblings.includes(flag) ? flag : undefined, credentialValue: member === 'value' && siblings.includes('name') }
}

/** isSensitiveIn for a member whose schema place is known (placeSensitivity): only what the place can hold is asked. */
export function isSensitiveAt(place: PlaceSensitivity, holder: Record<string, unknown>, value: string): boolean {
  if (place.always || isObfuscated(value)) return true
  if (place.flag !== undefined && Object.hasOwn(holder, place.flag)) {
    const flag = holder[place.flag]
    if (flag !== undefined && flag !== false) return true
  }
  return place.credentialValue && isCredentialName(holder.name)
}

/** Whether a holder of `member` marks it a credential: its `<member>_is_sensitive` flag, or a credential entry's `value`. */
function flaggedIn(container: unknown, member: string): boolean {
  if (container === null || typeof container !== 'object' || Array.isArray(container)) return false
  const holder = container as Record<string, unknown>
  const flagName = flagNameOf(member)
  const flag = Object.hasOwn(holder, flagName) ? holder[flagName] : undefined
  if (flag !== undefined && flag !== false) return true
  return member === 'value' && isCredentialName(holder.name)
}
