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

export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.message}`
}

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
