import { BRACE_CLOSE, BRACE_OPEN, BRACKET_CLOSE, BRACKET_OPEN, COLON, COMMA, CR, DQUOTE, HASH, LF, MINUS, SPACE, SQUOTE } from './char-codes.js'
import { coreScalarKind, coreScalarValue, STRING } from './core-scalars.js'

/**
 * The fastest way to read a configuration file, for the YAML most of them are (what `yaml`
 * writes, what `scansync import` writes, what people write): block mappings and block lists,
 * every value on its key's or its dash's line — a plain scalar, one quoted without escapes, or a
 * short flow collection (`[production, pci]`, `{id: x}`) — and comments on their own lines or
 * after a value. It builds the data as it scans the lines, in half to two thirds of js-yaml's time
 * (js-yaml also calls back for every node, so that fast-yaml.ts can check it; docs/performance.md).
 *
 * Lines may end in LF or CRLF. Anything else — block scalars, escapes, keys that are not simple
 * names, a list at its key's column, a value over several lines, a flow collection with an empty
 * entry or a key without a value, a tab, a carriage return outside a CRLF, characters outside the
 * printable ones — makes it decline (undefined), and fast-yaml.ts reads the file with js-yaml as
 * before. What it answers must equal what `yaml` and js-yaml give for the same text, down to
 * every position and js-yaml's item ranges: test/config/block-yaml.test.ts checks that by
 * differential fuzzing.
 *
 * It runs after fast-yaml.ts has checked the text for what only the `yaml` path may read
 * (needsPrecise, lines over 1024 characters).
 */

/**
 * Where each item of each top-level list is written (`targets` → [start, end, start, end, …], as
 * offsets into the text), when the top level is a block mapping. Lets a position inside one
 * resource be found by parsing that resource's text alone (read-yaml.ts).
 */
export type ItemRanges = ReadonlyMap<string, readonly number[]>

export interface BlockParse {
  data: Record<string, unknown>
  items: ItemRanges
}

/** As js-yaml: deeper nesting is declined. */
const MAX_DEPTH = 100

/**
 * Characters outside these make the file go to js-yaml: it rejects the non-printable ones (a lone
 * surrogate among them) with its own message, and tabs, carriage returns other than in a CRLF line
 * break, line and paragraph separators, byte order marks and `\x85` are left to the parsers that
 * know them. Characters beyond the BMP (an emoji: a pair of surrogates) are text.
 */
const OUTSIDE_PLAIN_TEXT = /[^\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\ud800-\udfff]|\r(?!\n)|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Thrown, and caught in parseBlockYaml, when the text leaves the subset. */
const DECLINE = Symbol('decline')

/** The text being read (one at a time: the reading is synchronous), its length, and where the scan is. */
let text = ''
let length = 0
let at = 0

/** The file's data and each top-level list's item ranges, or undefined for text outside the subset. */
export function parseBlockYaml(input: string): BlockParse | undefined {
  if (OUTSIDE_PLAIN_TEXT.test(input)) return undefined
  text = input
  length = input.length
  at = 0
  try {
    skipBlankLines()
    if (at >= length || indentAt(at) !== 0) return undefined
    const items = new Map<string, number[]>()
    const data = mapping(0, 0, -1, items)
    return at >= length ? { data, items } : undefined
  } catch (error) {
    if (error === DECLINE) return undefined
    throw error
  } finally {
    text = ''
  }
}

function decline(): never {
  throw DECLINE
}

/** Past blank lines and lines holding only a comment: `at` ends at the start of a line with content, or at the end. */
function skipBlankLines(): void {
  for (;;) {
    let p = at
    while (p < length && text.charCodeAt(p) === SPACE) p++
    if (p >= length) {
      at = length
      return
    }
    const c = text.charCodeAt(p)
    if (c === LF) at = p + 1
    else if (c === CR) at = p + 2
    else if (c === HASH) {
      const end = text.indexOf('\n', p)
      at = end < 0 ? length : end + 1
    } else return
  }
}

function indentAt(lineStart: number): number {
  let p = lineStart
  while (text.charCodeAt(p) === SPACE) p++
  return p - lineStart
}

const isNameStart = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f
const isNamePart = (c: number) => isNameStart(c) || (c >= 0x30 && c <= 0x39) || c === MINUS || c === 0x2e

/** Where a simple key (`name:` then a space or the line's end) starting at `p` ends (at its colon), or -1. */
function keyEnd(p: number): number {
  if (!isNameStart(text.charCodeAt(p))) return -1
  p++
  while (isNamePart(text.charCodeAt(p))) p++
  if (text.charCodeAt(p) !== COLON) return -1
  const next = text.charCodeAt(p + 1)
  return next === SPACE || isLineBreak(next) || p + 1 >= length ? p : -1
}

/**
 * A block mapping whose keys stand at `column`. `firstKey` is where its first key stands when it
 * starts on a list item's dash line (`- id: …`), else -1 (`at` is then at a line start).
 * `items` collects the item ranges of the top-level lists.
 */
function mapping(column: number, depth: number, firstKey: number, items?: Map<string, number[]>): Record<string, unknown> {
  if (depth > MAX_DEPTH) decline()
  const out: Record<string, unknown> = {}
  let keyAt = firstKey
  for (;;) {
    if (keyAt < 0) {
      skipBlankLines()
      if (at >= length) return out
      const indent = indentAt(at)
      if (indent < column) return out
      if (indent > column) decline()
      keyAt = at + indent
    }
    const colon = keyEnd(keyAt)
    if (colon < 0) decline()
    const key = newKey(out, text.slice(keyAt, colon))
    let p = colon + 1
    while (text.charCodeAt(p) === SPACE) p++
    const c = text.charCodeAt(p)
    if (p >= length || isLineBreak(c)) {
      at = p
      out[key] = valueBelow(column, depth, key, items)
    } else if (c === HASH) {
      // `key: # comment`, its value below: left to the others.
      decline()
    } else {
      at = p
      out[key] = valueToLineEnd(depth)
    }
    keyAt = -1
  }
}

/** A key new to its mapping: keys that resolve to null or a bool, duplicates, and the prototype's name are js-yaml's and `yaml`'s to judge. */
function newKey(mapping: Record<string, unknown>, key: string): string {
  if (key === '__proto__' || Object.hasOwn(mapping, key) || (key.length <= 5 && coreScalarKind(key) !== STRING)) decline()
  return key
}

/** The value of `key:` written on the lines below it (`at` is at the end of the key's line). */
function valueBelow(column: number, depth: number, key: string, items: Map<string, number[]> | undefined): unknown {
  skipBlankLines()
  if (at >= length) return null
  const indent = indentAt(at)
  const first = at + indent
  if (indent <= column) {
    // A list at its key's column is YAML, but left to the others; anything else there is the next key.
    if (indent === column && isDash(first)) decline()
    return null
  }
  if (!isDash(first)) return mapping(indent, depth + 1, -1)
  const ranges = items === undefined ? undefined : []
  const list = sequence(indent, depth + 1, ranges)
  if (ranges) items!.set(key, ranges)
  return list
}

/** A `-` that starts a list item (followed by a space or the line's end). */
function isDash(p: number): boolean {
  if (text.charCodeAt(p) !== MINUS) return false
  const next = text.charCodeAt(p + 1)
  return next === SPACE || isLineBreak(next) || p + 1 >= length
}

/** A line feed, or the carriage return of a CRLF (the only one the text may hold). */
const isLineBreak = (c: number) => c === LF || c === CR

/** A block list whose dashes stand at `column`; `ranges` gets each item's start and end (as js-yaml reports them). */
function sequence(column: number, depth: number, ranges: number[] | undefined): unknown[] {
  if (depth > MAX_DEPTH) decline()
  const out: unknown[] = []
  for (;;) {
    skipBlankLines()
    if (at >= length) return out
    const lineStart = at
    const indent = indentAt(lineStart)
    if (indent < column) return out
    if (indent > column) decline()
    let p = lineStart + indent
    if (!isDash(p)) return out
    p++
    // `-` alone on its line, its item below, and `- - x`: left to the others.
    if (text.charCodeAt(p) !== SPACE) decline()
    while (text.charCodeAt(p) === SPACE) p++
    const c = text.charCodeAt(p)
    if (p >= length || isLineBreak(c) || c === HASH || isDash(p)) decline()
    const start = p
    if (keyEnd(p) >= 0) {
      out.push(mapping(p - lineStart, depth + 1, p))
      if (ranges) ranges.push(start, nextContent())
    } else {
      at = p
      out.push(valueToLineEnd(depth))
      if (ranges) ranges.push(start, scalarEnd)
    }
  }
}

/**
 * Where the next line with content starts its content: js-yaml's end of a mapping before it. At
 * the end of a text without a final line break, one past its end: js-yaml adds the line break.
 */
function nextContent(): number {
  const from = at
  skipBlankLines()
  const next = at < length ? at + indentAt(at) : text.charCodeAt(length - 1) === LF ? length : length + 1
  at = from
  return next
}

/** Where the last scalar read ends as js-yaml ends it: at the `#` of a comment after it, else at the line break. */
let scalarEnd = 0

/**
 * A value written on its key's or its dash's line, to the end of the line or to a comment after
 * it: a scalar, or a collection in flow style (`[a, b]`, `{id: x}`); `at` ends at the line break.
 */
function valueToLineEnd(depth: number): unknown {
  const c = text.charCodeAt(at)
  let end = text.indexOf('\n', at)
  if (end < 0) end = length
  else if (text.charCodeAt(end - 1) === CR) end--
  if (c === DQUOTE || c === SQUOTE) {
    const result = c === DQUOTE ? doubleQuoted(end) : singleQuoted(end)
    at = result.close + 1
    return afterValue(end, result.value)
  }
  if (c === BRACKET_OPEN || c === BRACE_OPEN) return afterValue(end, flowCollection(end, depth + 1))
  if (startsIndicator(c, end)) decline()
  let raw = text.slice(at, end)
  const comment = raw.indexOf(' #')
  scalarEnd = comment < 0 ? end : at + comment + 1
  let stop = comment < 0 ? raw.length : comment
  while (stop > 0 && raw.charCodeAt(stop - 1) === SPACE) stop--
  if (stop < raw.length) raw = raw.slice(0, stop)
  // `key: a: b` is not a plain value, nor one that ends with a colon.
  if (raw.includes(': ') || raw.charCodeAt(raw.length - 1) === COLON) decline()
  at = end
  return coreScalarValue(raw)
}

const INDICATOR = new Uint8Array(128)
for (const c of '&*!|>%@`[]{},?:#') INDICATOR[c.charCodeAt(0)] = 1

/** An indicator first (`&`, `*`, `!`, `|`, `>`, `%`, `@`, backquote, `[`, `]`, `{`, `}`, `,`, `?`, `:`, `#`), or `- `: not a plain scalar here. */
const startsIndicator = (c: number, end: number) => INDICATOR[c] === 1 || (c === MINUS && (end === at + 1 || text.charCodeAt(at + 1) === SPACE))

/**
 * After a quoted scalar or a flow collection (its value, and where it ends): spaces, then nothing
 * or a comment (`"x"#c` and `[a]#c` are left to the others).
 */
function afterValue<T>(end: number, value: T): T {
  let p = at
  if (text.charCodeAt(p) === HASH) decline()
  while (p < end && text.charCodeAt(p) === SPACE) p++
  if (p < end && text.charCodeAt(p) !== HASH) decline()
  scalarEnd = p
  at = end
  return value
}

/**
 * A flow collection that closes on its line, of the simplest kind: simple keys followed by `: `,
 * plain scalars without `#` (and a `:` only inside a word), quoted scalars, nested collections;
 * no empty or trailing entries, no key without a value. `at` ends past its closing bracket.
 */
function flowCollection(end: number, depth: number): unknown {
  if (depth > MAX_DEPTH) decline()
  const isList = text.charCodeAt(at) === BRACKET_OPEN
  const close = isList ? BRACKET_CLOSE : BRACE_CLOSE
  const list: unknown[] = []
  const map: Record<string, unknown> = {}
  at++
  skipSpaces(end)
  if (text.charCodeAt(at) === close) {
    at++
    return isList ? list : map
  }
  for (;;) {
    if (isList) list.push(flowValue(end, depth))
    else {
      const colon = keyEnd(at)
      if (colon < 0 || text.charCodeAt(colon + 1) !== SPACE) decline()
      const key = newKey(map, text.slice(at, colon))
      at = colon + 1
      skipSpaces(end)
      map[key] = flowValue(end, depth)
    }
    skipSpaces(end)
    const c = text.charCodeAt(at)
    at++
    if (c === close) return isList ? list : map
    if (c !== COMMA) decline()
    skipSpaces(end)
    if (text.charCodeAt(at) === close) decline()
  }
}

/** A value inside a flow collection; `at` ends past it. */
function flowValue(end: number, depth: number): unknown {
  const c = text.charCodeAt(at)
  if (c === BRACKET_OPEN || c === BRACE_OPEN) return flowCollection(end, depth + 1)
  if (c === DQUOTE || c === SQUOTE) {
    const result = c === DQUOTE ? doubleQuoted(end) : singleQuoted(end)
    at = result.close + 1
    return result.value
  }
  if (startsIndicator(c, end) || (c === MINUS && isFlowEnd(text.charCodeAt(at + 1)))) decline()
  let p = at
  for (; p < end; p++) {
    const d = text.charCodeAt(p)
    if (isFlowEnd(d)) break
    // A `:` inside a word (`https://…`) is text; before a space or the end of an entry it would make a pair.
    if (d === HASH || (d === COLON && (p + 1 >= end || text.charCodeAt(p + 1) === SPACE || isFlowEnd(text.charCodeAt(p + 1))))) decline()
  }
  let stop = p
  while (stop > at && text.charCodeAt(stop - 1) === SPACE) stop--
  if (stop === at) decline()
  const raw = text.slice(at, stop)
  at = p
  return coreScalarValue(raw)
}

/** What ends a plain scalar in a flow collection (and may not follow a `-` that starts one). */
const isFlowEnd = (c: number) => c === COMMA || c === BRACKET_CLOSE || c === BRACE_CLOSE || c === BRACKET_OPEN || c === BRACE_OPEN

function skipSpaces(end: number): void {
  while (at < end && text.charCodeAt(at) === SPACE) at++
}

/** `"…"` on one line, without escapes. */
function doubleQuoted(end: number): { value: string; close: number } {
  const close = text.indexOf('"', at + 1)
  if (close < 0 || close > end) decline()
  const value = text.slice(at + 1, close)
  if (value.includes('\\')) decline()
  return { value, close }
}

/** `'…'` on one line, `''` standing for `'`. */
function singleQuoted(end: number): { value: string; close: number } {
  let value = ''
  let from = at + 1
  for (;;) {
    const close = text.indexOf("'", from)
    if (close < 0 || close > end) decline()
    value += text.slice(from, close)
    if (text.charCodeAt(close + 1) !== SQUOTE) return { value, close }
    value += "'"
    from = close + 2
  }
}
