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

const SCHEME_CHAR = /[a-z0-9+.-]/i
const LETTER = /[a-z]/i
const AUTHORITY_END = /[\s/?#]/

/**
 * Where the passwords of the URLs with one in a text are, as [start, end) pairs. As URL parsers
 * read a URL: after `scheme://`, the authority runs to the first `/`, `?`, `#` (or space), its
 * user information to the authority's last `@`, and the password from the user information's
 * first `:` (`scanner@example.com:pw@host` has the password `pw`, `deploy:P@ss@host` has `P@ss`).
 * One pass over the text, whatever it holds: it runs on every text scansync prints.
 */
export function urlPasswordSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = []
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
      if (text[i] === '@') userEnd = i
      else if (text[i] === ':' && colon === -1) colon = i
    }
    if (userEnd === -1 || colon === -1 || colon + 1 >= userEnd) continue
    spans.push([colon + 1, userEnd])
  }
  return spans
}

/** The text with each URL's password replaced by `placeholder` (the URL itself stays readable). */
export function maskUrlPasswords(text: string, placeholder: string): string {
  const spans = urlPasswordSpans(text)
  if (spans.length === 0) return text
  let out = ''
  let last = 0
  for (const [start, end] of spans) {
    out += text.slice(last, start) + placeholder
    last = end
  }
  return out + text.slice(last)
}
