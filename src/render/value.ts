/** What a value the service does not have prints as. */
export const NONE = '(none)'
/** What the declared side of a removed item prints as. */
export const REMOVED = '(removed)'

// C0/C1 controls, DEL, the Unicode line separators, and the format characters (\p{Cf}): the
// bidirectional overrides that could rearrange or hide text on a terminal or in a browser
// ("Trojan source"), and the characters with no glyph (zero-width space and joiners, soft
// hyphen, byte order mark), without which a change of one read `"Promo" -> "Promo"`.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu
const UNSAFE_EXCEPT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu

/** `\uXXXX` for each UTF-16 unit (a format character outside the BMP as JSON writes it: two). */
const escapeChar = (c: string) => {
  let out = ''
  for (let i = 0; i < c.length; i++) out += '\\u' + c.charCodeAt(i).toString(16).padStart(4, '0')
  return out
}

/** Text from the plan (ids, paths, messages) made safe to print: control characters become `\uXXXX`. */
export function printable(text: string, options: { keepNewlines?: boolean } = {}): string {
  return text.replace(options.keepNewlines ? UNSAFE_EXCEPT_NEWLINE : UNSAFE, escapeChar)
}

const BARE_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/

/**
 * A value on one line, in the YAML's terms: `"Shop"`, `true`, `["a", "b"]`,
 * `{name: "pci", color: "#d93f0b"}`, `(none)` for undefined, `null`.
 */
export function formatValue(value: unknown): string {
  return format(value, new Set())
}

function format(value: unknown, seen: Set<object>): string {
  if (value === undefined) return NONE
  if (value === null) return 'null'
  switch (typeof value) {
    case 'string':
      return quote(value)
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value)
    case 'object':
      break
    default:
      return printable(String(value))
  }
  if (value instanceof Date) return quote(Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString())
  if (seen.has(value)) return '(circular)'
  seen.add(value)
  let text: string
  if (Array.isArray(value)) {
    text = `[${value.map((item: unknown) => format(item, seen)).join(', ')}]`
  } else {
    const members = Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .map(([key, member]) => `${BARE_KEY.test(key) ? key : quote(key)}: ${format(member, seen)}`)
    text = `{${members.join(', ')}}`
  }
  seen.delete(value)
  return text
}

/** A string in double quotes, with JSON's escapes and the unsafe characters escaped. */
function quote(text: string): string {
  return printable(JSON.stringify(text))
}
