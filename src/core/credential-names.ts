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
 * The words of a URL parameter's name that mark its value a credential: a name is cut into words at
 * `-`, `_`, `.`, a lower-to-upper case change, an acronym's end and a digit (`X-Amz-Signature`,
 * `access_token`, `apiKey`, `APIToken`, `token2`), and
 * one of them must be one of these, so that `keyword`, `sortkey` or `monkey` (a search, a sort, a
 * product) are no credential, as the header rule's "contains key" would make them. Beyond the
 * header words: a signed URL's signature (`sig` of an Azure SAS, `X-Amz-Signature`), a login's
 * password (`pwd`, `passwd`), Firebase's `auth`, and the joined forms `apikey`, `sessionid`,
 * `jsessionid`, `phpsessid`.
 */
const URL_CREDENTIAL_WORDS: ReadonlySet<string> = new Set([
  'token', 'secret', 'key', 'password', 'session', 'sig', 'signature', 'pwd', 'passwd', 'auth',
  'apikey', 'sessionid', 'jsessionid', 'phpsessid', 'credential', 'credentials',
])

/** Whether a URL's query (or fragment, or `;` matrix) parameter's name marks its value a credential (case-insensitive). */
export function isUrlCredentialName(name: string): boolean {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    // An acronym's end and a digit cut too: `APIToken`, `XAPIKey` and `refreshToken2` were one word each, their values shown.
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([a-zA-Z])([0-9])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s\-_.]+/)
    .some((word) => URL_CREDENTIAL_WORDS.has(word) || CREDENTIAL_NAMES.has(word))
}
