/** A problem found in a configuration file, located at the YAML node it concerns. */
export interface Diagnostic {
  file: string
  line: number
  column: number
  /** Dotted path of the offending value inside the file (`targets[0].site.name`), or "" for the file. */
  path: string
  message: string
}

export interface SourcePosition {
  file: string
  line: number
  column: number
}

/** Whether two positions are the same place (two declarations taking a value from one anchor). */
export const samePlace = (a: SourcePosition, b: SourcePosition): boolean => a.file === b.file && a.line === b.line && a.column === b.column

export function formatDiagnostic(d: Diagnostic): string {
  // One problem, one line (contract): a line break in a name the message quotes (or in the file's
  // own name, config/find-files.ts) is written as an escape.
  return `${oneLine(d.file)}:${d.line}:${d.column}: ${oneLine(d.message)}`
}

const oneLine = (text: string) => text.replace(LINE_BREAKS, (c) => LINE_BREAK_ESCAPES[c] ?? c)
const LINE_BREAKS = /[\n\r\u2028\u2029]/g
/** Whether a text holds a line break: printed as it is, it would be two lines. */
export const hasLineBreak = (text: string): boolean => /[\n\r\u2028\u2029]/.test(text)
const LINE_BREAK_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\u2028': '\\u2028', '\u2029': '\\u2029' }

export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.message.localeCompare(b.message),
  )
}

/** Segments of a value's place in a document: keys and list indexes. */
export type PathSegments = ReadonlyArray<string | number>

/** `targets[0].site.name` */
export function formatPath(segments: PathSegments): string {
  let out = ''
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`
    else out += out === '' ? segment : `.${segment}`
  }
  return out
}
