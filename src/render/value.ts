// The escaping of what prints lives in core, where the redaction knows a secret's printed form too.
import { printable } from '../core/printable.js'

export { printable }

/** What a value the service does not have prints as. */
export const NONE = '(none)'
/** What the declared side of a removed item prints as. */
export const REMOVED = '(removed)'

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
