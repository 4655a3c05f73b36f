import { isUtf8 } from 'node:buffer'
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml'
import { Diagnostic, PathSegments, SourcePosition } from './diagnostics.js'

/** Aliases a file may expand; a "billion laughs" file fails fast instead of eating memory. */
const MAX_ALIAS_COUNT = 100

export interface ParsedFile {
  file: string
  /** The plain data; undefined when the file could not be parsed. */
  data: unknown
  /** Locates a value (or its key, with `key: true`) by its place in the data. */
  locate(path: PathSegments, options?: { key?: boolean }): SourcePosition
}

export interface ParseResult {
  parsed?: ParsedFile
  diagnostics: Diagnostic[]
}

function firstInvalidUtf8Line(bytes: Buffer): number {
  let line = 1
  let start = 0
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === 0x0a) {
      if (!isUtf8(bytes.subarray(start, i))) return line
      line++
      start = i + 1
    }
  }
  return 1
}

/** Parses one YAML file keeping the position of every node. Never throws. */
export function parseYamlFile(file: string, bytes: Buffer): ParseResult {
  const at = (line: number, column: number, message: string): ParseResult => ({
    diagnostics: [{ file, line, column, path: '', message }],
  })
  if (!isUtf8(bytes)) return at(firstInvalidUtf8Line(bytes), 1, 'the file is not valid UTF-8 text')

  let text = bytes.toString('utf8')
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)

  const lineCounter = new LineCounter()
  let doc: Document
  try {
    doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, merge: false })
  } catch (error) {
    return at(1, 1, `could not parse YAML: ${describeParserFailure(error)}`)
  }
  const position = (offset: number): { line: number; column: number } => {
    const { line, col } = lineCounter.linePos(offset)
    return { line, column: col }
  }

  if (doc.errors.length > 0) {
    // After the first syntax error the parser's later complaints are mostly its consequences;
    // duplicate keys are independent and all worth reporting.
    const duplicates = doc.errors.filter((error) => error.code === 'DUPLICATE_KEY')
    const firstSyntax = doc.errors.find((error) => error.code !== 'DUPLICATE_KEY')
    const lines = text.split('\n')
    return {
      diagnostics: [...duplicates, ...(firstSyntax ? [firstSyntax] : [])].map((error) => {
        const { line, column } = position(error.pos[0])
        let message = error.code === 'DUPLICATE_KEY' ? 'duplicate key: a key may appear only once in a mapping' : yamlMessage(error.message)
        if (error.code !== 'DUPLICATE_KEY' && /\$\{/.test(lines[line - 1] ?? '') && /[{}[\]]/.test(lines[line - 1] ?? '')) {
          message += ' (inside { } or [ ], quote a value that holds ${…}: "${NAME}")'
        }
        return { file, line, column, path: '', message: `YAML: ${message}` }
      }),
    }
  }

  let data: unknown
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT })
  } catch (error) {
    const message = error instanceof Error && /alias/i.test(error.message)
      ? `too many aliases expanded (more than ${MAX_ALIAS_COUNT}): refusing a file that would grow without bound`
      : `could not read YAML: ${describeParserFailure(error)}`
    return at(1, 1, message)
  }

  const locate = (path: PathSegments, options: { key?: boolean } = {}): SourcePosition => {
    const node = findNode(doc, path, options.key ?? false)
    const offset = node?.range?.[0] ?? 0
    return { file, ...position(offset) }
  }
  return { parsed: { file, data, locate }, diagnostics: [] }
}

function yamlMessage(message: string): string {
  // The library appends a position and a code frame; our diagnostics carry the position already.
  return message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')
}

function describeParserFailure(error: unknown): string {
  if (error instanceof RangeError) return 'the document is nested too deeply'
  return error instanceof Error ? yamlMessage(error.message) : String(error)
}

/**
 * The node at `path`, or the deepest existing ancestor when the path does not exist (so that a
 * missing field is reported at its parent). With `key`, the key node of the last segment.
 */
function findNode(doc: Document, path: PathSegments, key: boolean): Node | undefined {
  let node: unknown = doc.contents
  let found: Node | undefined = doc.contents ?? undefined
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]
    const last = i === path.length - 1
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(segment))
      if (!pair) return found
      if (last && key) return (pair.key as Node) ?? found
      node = pair.value
    } else if (isSeq(node) && typeof segment === 'number') {
      node = node.items[segment]
    } else {
      return found
    }
    if (node && typeof node === 'object' && 'range' in node) found = node as Node
    else return found
  }
  return found
}
