import { isUtf8 } from 'node:buffer'
import { createRequire } from 'node:module'
import type { Alias, Document, Node, Pair, YAMLError, YAMLMap } from 'yaml'
import { requireBuilt } from '../core/code-cache.js'
import { Diagnostic, PathSegments, SourcePosition } from '../core/diagnostics.js'
import { parseFast, type ItemRanges } from './fast-yaml.js'

// `yaml` is loaded only when a file takes the precise path or a position is asked for: most runs
// never need it, and it costs a good part of the start-up. From the one file the build makes of
// it (scripts/bundle.js), with its code cache; from the package when running from the sources.
let yamlModule: typeof import('yaml') | undefined
const yaml = (): typeof import('yaml') =>
  (yamlModule ??= (requireBuilt(new URL('./yaml.bundle.cjs', import.meta.url)) ?? createRequire(import.meta.url)('yaml')) as typeof import('yaml'))

/** How many `yaml` Documents were built (what the lazy positions save; tests read it). */
export const yamlDocuments = { parsed: 0 }

function parseDocument(...args: Parameters<typeof import('yaml').parseDocument>): Document {
  yamlDocuments.parsed++
  return yaml().parseDocument(...args) as Document
}

/**
 * How far aliases and merge keys may grow a file: its values once expanded may number this many
 * more than ten times those written. A shared blackout window merged into 2,000 targets is well
 * inside; a "billion laughs" file is refused before it is expanded, instead of eating memory.
 */
const EXPANSION_ALLOWANCE = 100_000
const EXPANSION_FACTOR = 10

export interface ParsedFile {
  file: string
  /** The plain data; undefined when the file could not be parsed. */
  data: unknown
  /** The text the data was read from (BOM removed, a carriage return alone made a line feed). */
  text: string
  /** Locates a value (or its key, with `key: true`) by its place in the data. */
  locate(path: PathSegments, options?: { key?: boolean }): SourcePosition
}

export interface ReadOptions {
  /** False: always parse with `yaml` (the precise path), as tests do to compare the two. */
  fastPath?: boolean
}

export interface ParseResult {
  parsed?: ParsedFile
  diagnostics: Diagnostic[]
}

const LONE_CR = /\r(?!\n)/
const LONE_CRS = new RegExp(LONE_CR.source, 'g')

/**
 * Line and column of the first byte that is not valid UTF-8, counted as every other position is
 * (in UTF-16 units, the byte order mark not counted, a carriage return alone a line end).
 */
function firstInvalidUtf8(bytes: Buffer): { line: number; column: number } {
  let line = 1
  let start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
  for (let i = 0; i <= bytes.length; i++) {
    // A carriage return alone ends a line too (parseYamlFile).
    if (i === bytes.length || bytes[i] === 0x0a || (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a)) {
      const text = bytes.subarray(start, i)
      if (!isUtf8(text)) return { line, column: firstReplacementColumn(text) }
      line++
      start = i + 1
    }
  }
  return { line: 1, column: 1 }
}

/** Column of the first character the decoder had to replace, skipping U+FFFD written as such. */
function firstReplacementColumn(line: Buffer): number {
  const decoded = line.toString('utf8')
  let byte = 0
  let column = 1
  for (const char of decoded) {
    const size = Buffer.byteLength(char)
    if (char === '\uFFFD' && !(line[byte] === 0xef && line[byte + 1] === 0xbf && line[byte + 2] === 0xbd)) return column
    byte += size
    column += char.length
  }
  return 1
}

/**
 * Parses one YAML file. Never throws.
 *
 * Most files take the fast path (fast-yaml.ts: js-yaml, plain data only), and their positions are
 * worked out by `yaml` only when one is read (a diagnostic, a changed field a plan shows): see
 * lazyLocator. A file the fast path declines (a syntax error, anchors and aliases, tags, …) is
 * parsed with `yaml` at once, which gives the same data, the errors in their tested words, and the
 * alias cap.
 */
export function parseYamlFile(file: string, bytes: Buffer, options: ReadOptions = {}): ParseResult {
  if (!isUtf8(bytes)) {
    // Windows PowerShell 5 writes UTF-16 with a byte order mark (`scansync import … > targets.yaml`).
    if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
      return { diagnostics: [{ file, line: 1, column: 1, path: '', message: 'the file is UTF-16 text (it starts with a UTF-16 byte order mark), not UTF-8: save it as UTF-8 (in PowerShell, write it with Out-File -Encoding utf8 or --out DIR)' }] }
    }
    const { line, column } = firstInvalidUtf8(bytes)
    return { diagnostics: [{ file, line, column, path: '', message: 'the file is not valid UTF-8 text' }] }
  }
  // UTF-16 without a byte order mark (Node's 'utf16le', some editors) is valid UTF-8 when its text
  // is ASCII: every other byte NUL, which YAML does not allow, so it would parse as nonsense.
  const nul = bytes.indexOf(0)
  if (nul >= 0 && nul <= 1) {
    return { diagnostics: [{ file, line: 1, column: 1, path: '', message: 'the file is UTF-16 text without a byte order mark (every other byte is NUL), not UTF-8: save it as UTF-8' }] }
  }
  let text = bytes.toString('utf8')
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  // A carriage return alone is a line break to YAML (1.2, b-break) and to editors (`\r\r\n` from CRLF
  // text written again in text mode, a CRLF file whose last `\n` was cut, classic Mac line ends);
  // `yaml` keeps it in the value before it ("Decommissioned\r", sent as such) or misreads the lines
  // after it. One character for one: every offset, and so every position, stays.
  if (text.includes('\r') && LONE_CR.test(text)) text = text.replace(LONE_CRS, '\n')

  const fast = options.fastPath === false ? undefined : parseFast(text)
  if (fast?.ok) return { parsed: { file, data: fast.data, text, locate: lazyLocator(file, text, fast.items, fast.itemsAtNodes === true) }, diagnostics: [] }
  return parsePrecisely(file, text)
}

/** The `yaml` Document of a file, with what turns its offsets into lines and columns. */
interface PositionIndex {
  doc: Document
  lineCounter: InstanceType<typeof import('yaml').LineCounter>
}

/**
 * `yaml`'s own check for duplicate keys compares each key with every key before it in its
 * mapping: time quadratic in the size of a mapping (a hostile file of 100,000 keys took minutes).
 * It is off; duplicateKeys() finds the same duplicates in one pass over the Document. Its
 * warnings stay in the Document, not on stderr (`Keys with collection values will be stringified`
 * is advice for programmers; such a key is reported as an error of its own).
 */
const YAML_OPTIONS = { uniqueKeys: false, prettyErrors: false, merge: true, logLevel: 'error' } as const
/** For positions only (nodes and their places do not depend on the duplicate check). */
const POSITION_OPTIONS = YAML_OPTIONS

function indexPositions(text: string, options: typeof YAML_OPTIONS = YAML_OPTIONS): PositionIndex {
  const lineCounter = new (yaml().LineCounter)()
  return { doc: parseDocument(text, { lineCounter, ...options }), lineCounter }
}

function locator(file: string, index: () => PositionIndex): ParsedFile['locate'] {
  return (path, options = {}) => {
    const { doc, lineCounter } = index()
    const node = findNode(doc, path, options.key ?? false)
    const { line, col } = lineCounter.linePos(node?.range?.[0] ?? 0)
    return { file, line, column: col }
  }
}

/**
 * Positions for a file read by the fast path. A position is handed out at once, but its line and
 * column are worked out when first read, by `yaml`:
 * - inside an item of a top-level list (a resource: `targets[3].site.name`), by parsing that
 *   item's text alone, in place (same offsets), so that a plan noting where each of its changes is
 *   declared costs a small parse per changed resource, not a parse of every file;
 * - anywhere else (the top level, a list itself), by parsing the whole file once.
 * The whole Document, once parsed, and the last few items parsed are kept for later questions.
 */
function lazyLocator(file: string, text: string, items: ItemRanges | undefined, itemsAtNodes = false): ParsedFile['locate'] {
  let whole: PositionIndex | undefined
  const wholeFile = (): PositionIndex => {
    try {
      return (whole ??= indexPositions(text, POSITION_OPTIONS))
    } catch {
      // The fast path read this text, so `yaml` will too; should it not, positions fall back to 1:1.
      return (whole = indexPositions(''))
    }
  }
  const inWholeFile = locator(file, wholeFile)

  let lineStarts: number[] | undefined
  // The items parsed last: questions about one resource come together (a plan, change by change),
  // so a few are enough, and memory stays small however many resources are asked about.
  const itemDocs = new Map<string, { doc: Document; start: number } | null>()
  /** The item `path` lies in, parsed alone: its text from the start of its first line, the part of that line before it blanked. */
  const itemOf = (path: PathSegments): { doc: Document; start: number } | undefined => {
    const [list, index] = path
    const ranges = typeof list === 'string' && typeof index === 'number' ? items?.get(list) : undefined
    if (!ranges || !Number.isInteger(index) || (index as number) < 0 || (index as number) * 2 >= ranges.length) return undefined
    const id = `${list}\0${index}`
    let item = itemDocs.get(id)
    if (item === undefined) {
      const start = ranges[(index as number) * 2]
      const lineStart = text.lastIndexOf('\n', start - 1) + 1
      let doc: Document | undefined
      try {
        doc = parseDocument(' '.repeat(start - lineStart) + text.slice(start, ranges[(index as number) * 2 + 1]), POSITION_OPTIONS)
      } catch {}
      item = doc && doc.errors.length === 0 && doc.contents?.range?.[0] === start - lineStart ? { doc, start: lineStart } : null
      if (itemDocs.size >= ITEM_DOCS_KEPT) itemDocs.delete(itemDocs.keys().next().value!)
      itemDocs.set(id, item)
    }
    return item ?? undefined
  }
  const find = (path: PathSegments, options: { key?: boolean }): SourcePosition => {
    const item = whole ? undefined : itemOf(path)
    if (!item) return inWholeFile(path, options)
    const node = findNode(item.doc, path.slice(2), options.key ?? false)
    lineStarts ??= lineStartsOf(text)
    return { file, ...linePosition(lineStarts, item.start + (node?.range?.[0] ?? 0)) }
  }
  /**
   * The position of a whole item (a resource's own, asked for every resource a file declares)
   * when its range starts at its node: plain data at once, where a deferred position costs an
   * object with accessors (~2.5 µs a resource).
   */
  const itemStart = (path: PathSegments, options: { key?: boolean }): SourcePosition | undefined => {
    if (!itemsAtNodes || path.length !== 2 || options.key) return undefined
    const [list, index] = path
    if (typeof list !== 'string' || typeof index !== 'number') return undefined
    const ranges = items?.get(list)
    if (!ranges || !Number.isInteger(index) || index < 0 || index * 2 >= ranges.length) return undefined
    lineStarts ??= lineStartsOf(text)
    return { file, ...linePosition(lineStarts, ranges[index * 2]) }
  }
  return (path, options = {}) => {
    if (whole) return inWholeFile(path, options)
    return itemStart(path, options) ?? deferredPosition(file, [...path], options, find)
  }
}

const ITEM_DOCS_KEPT = 16

/** Offsets at which each line starts (what `yaml`'s LineCounter records). */
function lineStartsOf(text: string): number[] {
  const starts = [0]
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
  return starts
}

/** 1-based line and column (in UTF-16 units, as `yaml` counts) of an offset. */
function linePosition(lineStarts: readonly number[], offset: number): { line: number; column: number } {
  let low = 0
  let high = lineStarts.length - 1
  while (low < high) {
    const middle = (low + high + 1) >> 1
    if (lineStarts[middle] <= offset) low = middle
    else high = middle - 1
  }
  return { line: low + 1, column: offset - lineStarts[low] + 1 }
}

/**
 * A position whose line and column are found on first read (own enumerable properties, so that
 * spreading and JSON see them). One is made per resource: the accessors are all it holds.
 */
function deferredPosition<Options>(file: string, path: PathSegments, options: Options, find: (path: PathSegments, options: Options) => SourcePosition): SourcePosition {
  let found: { line: number; column: number } | undefined
  return {
    file,
    get line() {
      return (found ??= find(path, options)).line
    },
    set line(line) {
      found = { ...(found ??= find(path, options)), line }
    },
    get column() {
      return (found ??= find(path, options)).column
    },
    set column(column) {
      found = { ...(found ??= find(path, options)), column }
    },
  }
}

/** Parses one YAML file with `yaml`, keeping the position of every node. */
function parsePrecisely(file: string, text: string): ParseResult {
  const at = (line: number, column: number, message: string): ParseResult => ({
    diagnostics: [{ file, line, column, path: '', message }],
  })
  let index: PositionIndex
  try {
    index = indexPositions(text)
  } catch (error) {
    return at(1, 1, `could not parse YAML: ${describeParserFailure(error)}`)
  }
  const { doc, lineCounter } = index
  const position = (offset: number): { line: number; column: number } => {
    const { line, col } = lineCounter.linePos(offset)
    return { line, column: col }
  }

  const duplicates = duplicateKeys(doc)
  if (doc.errors.length > 0 || duplicates.length > 0) {
    // After the first syntax error the parser's later complaints are mostly its consequences;
    // duplicate keys are independent and all worth reporting.
    const firstSyntax = doc.errors[0]
    const lines = text.split('\n')
    const lineOf = (offset: number) => position(offset).line
    const located = duplicates.map(({ offset, key, firstOffset }) => ({
      offset,
      message: `duplicate key ${JSON.stringify(key)} (first at line ${lineOf(firstOffset)}): a key may appear only once in a mapping`,
    }))
    if (firstSyntax) {
      const described = describeYamlError(firstSyntax, doc, text)
      const line = lines[lineOf(described.offset) - 1] ?? ''
      const hint = /\$\{/.test(line) && /[{}[\]]/.test(line) ? ' (inside { } or [ ], quote a value that holds ${…}: "${NAME}")' : ''
      located.push({ offset: described.offset, message: described.message + hint })
    }
    return {
      diagnostics: located.map(({ offset, message }) => ({ file, ...position(offset), path: '', message: `YAML: ${message}` })),
    }
  }

  const aliasProblem = checkAliases(doc) ?? checkTags(doc, text)
  if (aliasProblem) {
    const where = aliasProblem.offset === undefined ? { line: 1, column: 1 } : position(aliasProblem.offset)
    return at(where.line, where.column, aliasProblem.message)
  }

  let data: unknown
  try {
    let aliased = false
    // checkAliases bounded the expansion: `yaml`'s own cap counts every use of an anchor, and
    // would refuse a window shared by a hundred targets.
    resolveAliasesInOnePass(doc)
    data = doc.toJS({ maxAliasCount: -1, onAnchor: () => (aliased = true) })
    // An alias gives the same object at each place; every place gets its own copy, so that
    // resolving variables and shorthands in place happens once per place.
    if (aliased) data = copyTree(data)
  } catch (error) {
    return at(1, 1, `could not read YAML: ${describeParserFailure(error)}`)
  }

  const locate = locator(file, () => index)
  return { parsed: { file, data, text, locate }, diagnostics: [] }
}

/**
 * Where a YAML error is best reported, in words for people. The parser notices an unclosed quote
 * or bracket only where the text runs out, so those point back at the opening character; a key
 * indented deeper than its siblings points at that key rather than at the value it extends.
 */
function describeYamlError(error: YAMLError, doc: Document, text: string): { offset: number; message: string } {
  const offset = error.pos[0]
  if (error.code === 'MULTIPLE_DOCS') {
    return { offset, message: 'a second document starts here (---); a configuration file holds one document: split it into two files' }
  }
  const unclosed = /closing (["'])quote/.exec(error.message)?.[1] ?? /end with an? ([\]}])/.exec(error.message)?.[1]
  if (unclosed && (error.code === 'MISSING_CHAR' || error.code === 'BAD_INDENT')) {
    const restOfLine = text.slice(offset, (text.indexOf('\n', offset) + 1 || text.length + 1) - 1)
    const opener = findUnclosed(doc, offset)
    // A closing bracket on that line means the bracket is closed and the line is under-indented.
    if (opener && !(unclosed !== '"' && unclosed !== "'" && restOfLine.includes(unclosed))) {
      const start = opener.range![0]
      const open = text[start]
      // A quote closed on the next line, which the parser did not reach: that line is not indented under the key.
      const lineEnd = text.indexOf('\n', start)
      const nextLine = lineEnd < 0 ? '' : text.slice(lineEnd + 1, (text.indexOf('\n', lineEnd + 1) + 1 || text.length + 1) - 1)
      const closedLater = open === unclosed && nextLine.includes(open)
      return {
        offset: start,
        message:
          open !== unclosed
            ? `the ${open} opened here is never closed by a ${unclosed}`
            : closedLater
              ? `the quote ${open} opened here is not closed on its line, and the lines after it are not indented more than its key: indent the rest of the value, or write it on one line`
              : `the quote ${open} opened here is never closed`,
      }
    }
  }
  if (error.code === 'BLOCK_AS_IMPLICIT_KEY') {
    const multiline = doc.errors.find((e) => e.code === 'MULTILINE_IMPLICIT_KEY' && e.pos[0] === offset)
    if (multiline) {
      // The key's text runs from the value above down to the colon of the misplaced key.
      const lineStart = text.lastIndexOf('\n', multiline.pos[1] - 1) + 1
      const keyStart = lineStart + (/^[ \t]*/.exec(text.slice(lineStart))?.[0].length ?? 0)
      return { offset: keyStart, message: 'this key is indented more than the keys before it; the keys of one mapping must start at the same column' }
    }
    return { offset, message: `${yamlMessage(error.message)} (a value holding ": " must be quoted)` }
  }
  if (error.code === 'MISSING_CHAR' && error.message.startsWith('Implicit map keys need to be followed by map values')) {
    // `url:https://…` is one plain word, not a key and its value. The value is not repeated (it may be a secret).
    const key = /^(?:-[ \t]+)?([A-Za-z_][\w-]*):(?=[^\s:])/.exec(text.slice(offset))?.[1]
    if (key !== undefined) return { offset, message: `"${key}:" needs a space after its colon: write ${key}: followed by a space and the value` }
  }
  if (/Maximum call stack/.test(error.message)) return { offset, message: 'the document is nested too deeply' }
  // A pattern written in double quotes as JSON shows it (`"\d+"`, `"example\.com"`): the escape is YAML's, not the pattern's.
  if (error.code === 'BAD_DQ_ESCAPE' && /^Invalid escape sequence \\.$/.test(yamlMessage(error.message))) {
    return { offset, message: `${yamlMessage(error.message)} (inside "…" a backslash starts an escape: write a text that holds backslashes, such as a pattern, in single quotes ('^[a-z]+\\d'), or double each backslash ("\\\\d"))` }
  }
  return { offset, message: yamlMessage(error.message) }
}

/**
 * Every key that repeats an earlier key of its mapping, in the order of the text, with where that
 * earlier key is: what `yaml` reports with `uniqueKeys: true` (scalar keys of equal value; a NaN
 * key equals nothing), in one pass over the Document instead of a comparison of every pair.
 */
function duplicateKeys(doc: Document): Array<{ offset: number; key: string; firstOffset: number }> {
  const found: Array<{ offset: number; key: string; firstOffset: number }> = []
  yaml().visit(doc, {
    Map(_, map) {
      let first: Map<unknown, number> | undefined
      for (const pair of map.items) {
        const key = pair.key
        if (!yaml().isScalar(key) || Number.isNaN(key.value) || !key.range) continue
        first ??= new Map()
        const earlier = first.get(key.value)
        if (earlier === undefined) first.set(key.value, key.range[0])
        else found.push({ offset: key.range[0], key: String(key.value), firstOffset: earlier })
      }
    },
  })
  return found.sort((a, b) => a.offset - b.offset)
}

/** The innermost quoted scalar or flow collection that the text ran out inside of. */
function findUnclosed(doc: Document, offset: number): Node | undefined {
  let found: Node | undefined
  const consider = (node: Node) => {
    if (node.range && node.range[1] === offset && node.range[0] < offset && (!found || node.range[0] > found.range![0])) found = node
  }
  yaml().visit(doc, {
    Scalar(_, node) {
      if (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE') consider(node)
    },
    Map(_, node) {
      if (node.flow) consider(node)
    },
    Seq(_, node) {
      if (node.flow) consider(node)
    },
  })
  return found
}

/** A deep copy of plain data, shared parts copied at each place (a `__proto__` key stays a key). */
function copyTree(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyTree)
  if (value === null || typeof value !== 'object') return value
  const copy: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(copy, key, { value: copyTree(item), enumerable: true, writable: true, configurable: true })
  }
  return copy
}

function yamlMessage(message: string): string {
  // The library appends a position and a code frame; our diagnostics carry the position already.
  return message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')
}

function describeParserFailure(error: unknown): string {
  if (error instanceof RangeError) return 'the document is nested too deeply'
  return error instanceof Error ? yamlMessage(error.message) : String(error)
}

/** Whether a key is YAML 1.1's merge key: a plain `<<` (`yaml` resolves it to a symbol). */
function isMergeKey(key: unknown): boolean {
  return yaml().isScalar(key) && typeof key.value === 'symbol'
}

/**
 * The node each alias of a Document stands for: the last node before it with that anchor, found
 * in one pass (`yaml`'s Alias.resolve walks the whole Document at each call without a context).
 */
const aliasTargets = new WeakMap<Document, Map<Alias, Node>>()

function targetOf(doc: Document, alias: Alias): Node | undefined {
  return aliasTargetsOf(doc).get(alias)
}

function aliasTargetsOf(doc: Document): Map<Alias, Node> {
  let targets = aliasTargets.get(doc)
  if (!targets) {
    const found = new Map<Alias, Node>()
    const anchors = new Map<string, Node>()
    yaml().visit(doc, {
      Node(_, node) {
        if (yaml().isAlias(node)) {
          const target = anchors.get(node.source)
          if (target) found.set(node, target)
        } else if (node.anchor) anchors.set(node.anchor, node)
      },
    })
    aliasTargets.set(doc, (targets = found))
  }
  return targets
}

/** How often toJS had to fall back on `yaml`'s own scan to resolve an alias (tests read it). */
export const aliasScans = { count: 0 }

/**
 * `yaml`'s toJS resolves each alias with Alias.resolve, which scans every anchor and alias written
 * before it: quadratic in their number (a window shared by 4,000 targets took 3 s to read, 20,000
 * aliases 7 s). Each alias of `doc` answers from the one pass of aliasTargetsOf instead, with the
 * same node (the last one of its anchor before it). The scan stays for an alias whose node toJS
 * has not made yet, which document order rules out once checkAliases has refused cycles.
 */
function resolveAliasesInOnePass(doc: Document): void {
  const scan = yaml().Alias.prototype.resolve
  for (const [alias, target] of aliasTargetsOf(doc)) {
    Object.defineProperty(alias, 'resolve', {
      configurable: true,
      value(this: Alias, document: Document, ctx?: { anchors: Map<unknown, unknown> }): Node | undefined {
        if (ctx && !ctx.anchors.has(target)) {
          aliasScans.count++
          return (scan as (this: Alias, d: Document, c?: unknown) => Node | undefined).call(this, document, ctx)
        }
        return target
      },
    })
  }
}

/** A node, or what it stands for when it is an alias. */
function resolved(doc: Document, node: unknown): unknown {
  return yaml().isAlias(node) ? targetOf(doc, node) : node
}

/** The mappings a merge key's value names, in order (earlier ones win); non-mappings left out. */
function mergeSources(doc: Document, value: unknown): YAMLMap[] {
  const source = resolved(doc, value)
  const items = yaml().isSeq(source) ? source.items.map((item) => resolved(doc, item)) : [source]
  return items.filter((item): item is YAMLMap => yaml().isMap(item))
}

/**
 * What makes merge keys and aliases safe to expand, found in one pass in the order of the text:
 * a merge key given something other than mappings, an alias inside the node it names (a cycle),
 * or an expansion that would grow the file without bound (each anchored node's expanded size is
 * counted once, so a "billion laughs" file is measured, not expanded).
 */
function checkAliases(doc: Document): { offset?: number; message: string } | undefined {
  const Y = yaml()
  const anchors = new Map<string, Node>()
  const sizes = new Map<Node, number>()
  const open = new Set<unknown>()
  let written = 0
  let problem: { offset?: number; message: string } | undefined
  const offsetOf = (node: unknown) => (Y.isNode(node) ? node.range?.[0] : undefined)
  const checkMerge = (pair: Pair) => {
    const value = pair.value
    const source = resolved(doc, value)
    const items = Y.isSeq(source) ? source.items : [value]
    for (const item of items) {
      if (Y.isAlias(item) && !targetOf(doc, item)) {
        problem = { offset: offsetOf(item), message: unnamedAlias(item) }
        return
      }
      if (Y.isMap(resolved(doc, item))) continue
      const what = item === null || item === undefined || (Y.isScalar(item) && item.value === null) ? 'nothing' : Y.isSeq(resolved(doc, item)) ? 'a list' : 'a single value'
      // `<<: *list`: the fault is the merge that names the list, not the list's items where it is written.
      const named = Y.isAlias(value) && Y.isSeq(source) ? value : undefined
      problem = {
        offset: offsetOf(named ?? item) ?? offsetOf(value) ?? offsetOf(pair.key),
        message: `a merge key (<<) takes a mapping, an alias of one (<<: *name) or a list of them (<<: [*a, *b]), not ${named ? `*${named.source}: a list whose items are not all mappings` : what}`,
      }
      return
    }
  }
  const sizeOf = (node: unknown): number => {
    if (problem || node === null || node === undefined) return 0
    if (Y.isAlias(node)) {
      const target = anchors.get(node.source)
      if (!target) {
        problem = { offset: offsetOf(node), message: unnamedAlias(node) }
        return 0
      }
      if (open.has(target)) {
        problem = { offset: offsetOf(node), message: `the alias *${node.source} is inside the node it names (&${node.source}): a cycle, which would never end; name another node` }
        return 0
      }
      return sizes.get(target) ?? 1
    }
    written++
    if (Y.isNode(node) && node.anchor) anchors.set(node.anchor, node)
    open.add(node)
    let size = 1
    if (Y.isMap(node)) {
      for (const pair of node.items) {
        if (isMergeKey(pair.key)) checkMerge(pair)
        size += sizeOf(pair.key) + sizeOf(pair.value)
      }
    } else if (Y.isSeq(node)) {
      for (const item of node.items) size += sizeOf(item)
    }
    open.delete(node)
    if (Y.isNode(node) && node.anchor) sizes.set(node, size)
    return size
  }
  const total = sizeOf(doc.contents)
  if (problem) return problem
  const limit = EXPANSION_ALLOWANCE + EXPANSION_FACTOR * written
  if (total > limit) {
    return { message: `too many aliases expanded: the ${written} values written would grow to more than ${limit}; refusing a file that would grow without bound` }
  }
  return undefined
}

/**
 * A tag `yaml` could not apply (`!secret db_password`, `!!binary …`, `!!float 1`) is refused at the
 * tag: `yaml` would fall back to the text, and `!secret x` would send "x" as the value.
 */
function checkTags(doc: Document, text: string): { offset?: number; message: string } | undefined {
  const refuse = (from: number, to: number) => ({
    offset: from,
    message: `the tag ${text.slice(from, to)} is not one scansync reads here: write the value itself (quoted, for a text), or \${NAME} for a value from the environment`,
  })
  const unresolved = doc.warnings.find((warning) => warning.code === 'TAG_RESOLVE_FAILED')
  if (unresolved) return refuse(unresolved.pos[0], unresolved.pos[1])
  // The tags `yaml` knows beyond the core schema's (!!binary, !!timestamp, !!set…) make values no configuration holds.
  let problem: { offset?: number; message: string } | undefined
  yaml().visit(doc, {
    Node(_, node) {
      const tag = (node as { tag?: string }).tag
      if (tag === undefined || CORE_TAGS.has(tag)) return undefined
      const start = (node as Node).range?.[0] ?? 0
      let from = text.lastIndexOf('!', start)
      while (from > 0 && text[from - 1] === '!') from--
      const to = from < 0 ? start : text.slice(from).search(/\s|$/) + from
      problem = from < 0 ? { offset: start, message: `the tag ${tag} is not one scansync reads here` } : refuse(from, to)
      return yaml().visit.BREAK
    },
  })
  return problem
}

/** The tags of YAML's core schema (`!!str 123` is the text "123"), `!` (a text) and the merge key's. */
const CORE_TAGS = new Set(['!', ...['str', 'int', 'float', 'bool', 'null', 'map', 'seq', 'merge'].map((name) => `tag:yaml.org,2002:${name}`)])

const unnamedAlias = (alias: Alias) => `the alias *${alias.source} names no anchor before it: write &${alias.source} on the value it stands for, above this line`

/** The anchor an alias asks for, when `message` says (unnamedAlias) that none was written before it. */
export const missingAnchor = (message: string): string | undefined => /^the alias \*(\S+) names no anchor before it: /.exec(message)?.[1]

/**
 * The line where `text` writes the anchor `&name` (as a node's property: after a space, a start
 * of line or a flow indicator, before a space or one, not in a comment), if it does.
 */
export function anchorLine(text: string, name: string): number | undefined {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const anchors = new RegExp(`(?:^|[\\s[\\]{},])&${escaped}(?=[\\s,[\\]{}]|$)`, 'gm')
  for (let found = anchors.exec(text); found; found = anchors.exec(text)) {
    const at = found.index + found[0].indexOf('&')
    const lineStart = text.lastIndexOf('\n', at - 1) + 1
    if (/(?:^|\s)#/.test(text.slice(lineStart, at))) continue
    let line = 1
    for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) line++
    return line
  }
  return undefined
}

/** Pairs of the mappings asked about, by key: one lookup per diagnostic, in O(1). */
const pairsByKey = new WeakMap<object, Map<string, Pair>>()

/**
 * The pair of `map` whose scalar key reads `key`: its own first, then those its merge keys bring
 * (earlier sources first), so that a merged value is located where it is written, inside the
 * anchored mapping. An index per mapping, built on the first question: looking through the
 * items for each question made a file of 40,000 unknown keys (one diagnostic each) take seconds,
 * time quadratic in the size of a mapping.
 */
function pairOf(doc: Document, map: YAMLMap, key: string): Pair | undefined {
  let index = pairsByKey.get(map)
  if (!index) {
    index = new Map()
    addPairs(doc, map, index, new Set())
    pairsByKey.set(map, index)
  }
  return index.get(key)
}

function addPairs(doc: Document, map: YAMLMap, index: Map<string, Pair>, seen: Set<YAMLMap>): void {
  if (seen.has(map)) return
  seen.add(map)
  const merges: Pair[] = []
  for (const item of map.items) {
    if (!yaml().isPair(item)) continue
    if (isMergeKey(item.key)) merges.push(item)
    else if (yaml().isScalar(item.key)) {
      const name = String(item.key.value)
      if (!index.has(name)) index.set(name, item)
    }
  }
  for (const merge of merges) for (const source of mergeSources(doc, merge.value)) addPairs(doc, source, index, seen)
}

/**
 * The node at `path`, or the deepest existing ancestor when the path does not exist (so that a
 * missing field is reported at its parent). With `key`, the key node of the last segment. An
 * alias on the way is followed to the node it names.
 */
function findNode(doc: Document, path: PathSegments, key: boolean): Node | undefined {
  let node: unknown = doc.contents
  let found: Node | undefined = doc.contents ?? undefined
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]
    const last = i === path.length - 1
    node = resolved(doc, node)
    if (yaml().isMap(node)) {
      const pair = pairOf(doc, node, String(segment))
      if (!pair) return found
      if (last && key) return (pair.key as Node) ?? found
      node = pair.value
    } else if (yaml().isSeq(node) && typeof segment === 'number') {
      node = node.items[segment]
    } else {
      return found
    }
    if (node && typeof node === 'object' && 'range' in node) found = node as Node
    else return found
  }
  return found
}
