/**
 * A URL as plans compare URLs: scheme and host lower-cased, default port dropped, an empty path
 * written "/". Anything that is not an http(s) URL stays as it is. Here in core because the
 * configuration checks (two targets without id and one URL) compare URLs as the plans do.
 */
export function comparableUrl(value: string): string {
  if (value === '') return value
  try {
    const parsed = new URL(value)
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return value
    return parsed.href
  } catch {
    return value
  }
}

import { isUrlCredentialName } from './credential-names.js'

const SCHEME_CHAR = /[a-z0-9+.-]/i
const LETTER = /[a-z]/i
const AUTHORITY_END = /[\s/?#]/

/**
 * Where the passwords of the URLs with one in a text are, as [start, end) pairs. As URL parsers
 * read a URL: after `scheme://`, the authority runs to the first `/`, `?`, `#` (or space), its
 * user information to the authority's last `@`, and the password from the user information's
 * first `:` (`scanner@example.com:pw@host` has the password `pw`, `deploy:P@ss@host` has `P@ss`).
 * A credential carried as a parameter counts as a password too (urlParameterSpans:
 * `?access_token=…`, `&X-Amz-Signature=…`), in order with the others.
 * One pass over the text, whatever it holds: it runs on every text scansync prints.
 */
export function urlPasswordSpans(text: string, options: { escaped?: boolean } = {}): Array<[number, number]> {
  const spans = userInfoSpans(text, options)
  const parameters = urlParameterSpans(text, options)
  if (parameters.length === 0) return spans
  if (spans.length === 0) return parameters
  return [...spans, ...parameters].sort((a, b) => a[0] - b[0])
}

function userInfoSpans(text: string, options: { escaped?: boolean }): Array<[number, number]> {
  const spans: Array<[number, number]> = []
  const escaped = options.escaped === true
  if (!text.includes('@')) return spans
  for (let at = text.indexOf('://'); at !== -1; at = text.indexOf('://', at + 3)) {
    // A scheme before it: letters, digits, + . -, starting with a letter.
    let start = at
    let letter = false
    while (start > 0 && SCHEME_CHAR.test(text[start - 1]!)) if (LETTER.test(text[--start]!)) letter = true
    if (!letter) continue
    // The authority, its last `@` and first `:` (looked for within it only: a text is read once).
    let userEnd = -1
    let colon = -1
    for (let i = at + 3; i < text.length && !AUTHORITY_END.test(text[i]!); i++) {
      if (escaped && (text[i] === '\\' || text[i] === '<')) {
        const end = escapedBreakAt(text, i)
        if (end === true) break
        i = end
      }
      if (text[i] === '@') userEnd = i
      else if (text[i] === ':' && colon === -1) colon = i
    }
    if (userEnd === -1 || colon === -1 || colon + 1 >= userEnd) continue
    spans.push([colon + 1, userEnd])
  }
  return spans
}

/** Where a parameter's name starts: after `?` or `&` (a query), `#` (a fragment: OAuth's `#access_token=`) or `;` (`;jsessionid=`). */
const PARAMETER_START = new Set(['?', '&', '#', ';'])
/** What a parameter's name cannot hold: it ends at the `=`, so a text with none of these before it is no parameter. */
const NOT_IN_NAME = /[\s?&#;=/"'<>`]/
/** Where a parameter's value ends: the next parameter or fragment, a space, a quote or bracket around the URL. */
const VALUE_END = /[\s&#;"'<>`]/

/**
 * Where the values of the parameters whose names mark a credential (isUrlCredentialName:
 * `access_token`, `api_key`, `sig`, `X-Amz-Signature`, `password`, …) are, as [start, end) pairs:
 * `name=value` after `?`, `&`, `#` or `;`. Not only in a URL with a scheme: a `blacklist` entry or
 * a message may quote a path and its query alone. A value from a variable, as the YAML writes it
 * (`${TOKEN}`), is no credential; an empty one neither.
 */
export function urlParameterSpans(text: string, options: { escaped?: boolean } = {}): Array<[number, number]> {
  const spans: Array<[number, number]> = []
  const escaped = options.escaped === true
  for (let equals = text.indexOf('='); equals !== -1; equals = text.indexOf('=', equals + 1)) {
    let start = equals
    while (start > 0 && !NOT_IN_NAME.test(text[start - 1]!)) start--
    if (start === 0 || start === equals || !PARAMETER_START.has(text[start - 1]!)) continue
    let name = text.slice(start, equals)
    try {
      name = decodeURIComponent(name)
    } catch {
      // A lone `%`: the name as written.
    }
    if (!isUrlCredentialName(name)) continue
    let end = equals + 1
    for (; end < text.length && !VALUE_END.test(text[end]!); end++) {
      if (escaped && text[end] === '\\') {
        const at = escapedBreakAt(text, end)
        if (at === true) break
        end = at
      }
    }
    if (end === equals + 1 || text.startsWith('${', equals + 1)) continue
    spans.push([equals + 1, end])
    equals = end - 1
  }
  return spans
}

/**
 * In a printed text, at `i` (a backslash or `<`): true when a line break or space the printer
 * escaped starts there (JSON's \n or \u2028 after an odd run of backslashes, Markdown's <br>): a
 * URL in the value ends there, as it ends at the break itself. Otherwise the last of a run of
 * backslashes, to go on from (the run is read once).
 */
function escapedBreakAt(text: string, i: number): number | true {
  if (text[i] === '<') return text.startsWith('<br>', i) ? true : i
  let j = i
  while (text[j + 1] === '\\') j++
  // An even run is escaped backslashes (JSON's \\n is a backslash and an n, which a password may
  // hold): only an odd run escapes what follows. Markdown's doubled \\n is read as characters too,
  // a password hidden being the lesser error.
  if ((j - i) % 2 === 1) return j
  const next = text[j + 1]
  if (next === 'n' || next === 'r' || next === 't' || next === 'f' || next === 'v') return true
  if (next === 'u' && /^[0-9a-f]{4}$/i.test(text.slice(j + 2, j + 6)) && /\s/.test(String.fromCharCode(parseInt(text.slice(j + 2, j + 6), 16)))) return true
  return j
}

/**
 * The text with each URL's password replaced by `placeholder` (the URL itself stays readable). A
 * printed text: its values are quoted with escapes, so an escaped line break or space (\n, <br>)
 * ends a URL as the break itself does in the value. `escaped: false` for a text as written, not
 * printed (a service's words): a backslash there is itself.
 */
export function maskUrlPasswords(text: string, placeholder: string, options: { escaped?: boolean } = { escaped: true }): string {
  const spans = urlPasswordSpans(text, options)
  if (spans.length === 0) return text
  let out = ''
  let last = 0
  for (const [start, end] of spans) {
    out += text.slice(last, start) + placeholder
    last = end
  }
  return out + text.slice(last)
}
