/**
 * The names that mark a credential by wide convention: a header's, a cookie's or another
 * name/value entry's (schema/sensitivity.ts asks it for an entry's `value`), and a URL's query
 * parameter's (core/url.ts hides its value as it hides a URL's password). Here in core because
 * the output step, which masks URLs in every printed text, sits in core and asks it too.
 */

/** Header and cookie names that carry a credential by their nature. */
const CREDENTIAL_NAMES: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie'])
/** Words that mark a credential anywhere in an entry's name (`X-Api-Key`, `sessionid`, `csrf_token`). */
const CREDENTIAL_WORDS = ['token', 'secret', 'key', 'password', 'session']

/** Whether a header, cookie or other name/value entry's name marks a credential (case-insensitive). */
export function isCredentialName(name: unknown): boolean {
  if (typeof name !== 'string') return false
  const lower = name.toLowerCase()
  return CREDENTIAL_NAMES.has(lower) || CREDENTIAL_WORDS.some((word) => lower.includes(word))
}

/**
 * Query parameters that carry a credential in URLs by convention beyond those words: a signed
 * URL's signature (`sig` of an Azure SAS, `X-Amz-Signature`, `X-Goog-Signature`, `signature`), a
 * login's password (`pwd`, `passwd`) and Firebase's `auth`.
 */
const URL_CREDENTIAL_NAMES: ReadonlySet<string> = new Set(['sig', 'pwd', 'passwd', 'auth'])

/** Whether a URL's query (or fragment, or `;` matrix) parameter's name marks its value a credential (case-insensitive). */
export function isUrlCredentialName(name: string): boolean {
  const lower = name.toLowerCase()
  return isCredentialName(lower) || URL_CREDENTIAL_NAMES.has(lower) || lower.includes('signature')
}
