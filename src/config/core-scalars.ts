/**
 * The plain scalars of the YAML 1.2 core schema, resolved exactly as the `yaml` package resolves
 * them: the one resolution of both fast ways of reading a file (fast-yaml.ts, block-yaml.ts).
 */
const NULL = /^(?:~|[Nn]ull|NULL)?$/
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/
const INT = /^(?:0o[0-7]+|[-+]?[0-9]+|0x[0-9a-fA-F]+)$/
const FLOAT_SPECIAL = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$|^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/

export const STRING = 0
const NULL_SCALAR = 1
const BOOL_SCALAR = 2
const INT_SCALAR = 3
const FLOAT_SCALAR = 4

/** Which core-schema type a plain scalar resolves to (null, bool, int and float are disjoint). */
export function coreScalarKind(text: string): number {
  const c = text.charCodeAt(0)
  if (mayBeNumber(c)) {
    if (INT.test(text)) return INT_SCALAR
    if (FLOAT.test(text) || FLOAT_SPECIAL.test(text)) return FLOAT_SCALAR
    return STRING
  }
  // Every null and bool starts with one of `~nNtTfF` (or is empty), and is at most 5 characters long.
  if (text.length > 5) return STRING
  if (text.length <= 4 && NULL.test(text)) return NULL_SCALAR
  if ((text.length === 4 || text.length === 5) && BOOL.test(text)) return BOOL_SCALAR
  return STRING
}

export function coreScalarValue(text: string): unknown {
  switch (coreScalarKind(text)) {
    case NULL_SCALAR:
      return null
    case BOOL_SCALAR:
      return text[0] === 't' || text[0] === 'T'
    case INT_SCALAR:
      return text[1] === 'o' ? parseInt(text.substring(2), 8) : text[1] === 'x' ? parseInt(text.substring(2), 16) : parseInt(text, 10)
    case FLOAT_SCALAR:
      if (!FLOAT_SPECIAL.test(text)) return parseFloat(text)
      if (/nan$/i.test(text)) return NaN
      return text[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY
    default:
      return text
  }
}

/** A cheap first look: every number starts with a digit, a sign or a dot. */
function mayBeNumber(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2b /* + */ || c === 0x2d /* - */ || c === 0x2e /* . */
}
