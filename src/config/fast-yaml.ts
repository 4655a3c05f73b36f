import { createRequire } from 'node:module'
import type { EventType, LoadOptions, State } from 'js-yaml'
import { requireBuilt } from '../core/code-cache.js'
import { BRACE_OPEN, BRACKET_OPEN, COMMA, CR, GREATER, HASH, LF, MINUS, PIPE, SPACE, TAB } from './char-codes.js'
import { needsPrecise } from './precise-only.js'
import { parseBlockYaml, type ItemRanges } from './block-yaml.js'
import { coreScalarKind, coreScalarValue, STRING } from './core-scalars.js'

/**
 * The fast way to read a configuration file: js-yaml builds plain data several times faster than
 * the `yaml` package builds its Document (a CST and a node for every value, with positions). Plain
 * block YAML, what most configuration files are, is read faster still by block-yaml.ts, tried
 * first once the text passes the checks below; js-yaml reads what it declines.
 *
 * The answer must be exactly the data the `yaml` path (read-yaml.ts) gives, so this path declines
 * whenever it could differ, and the caller then parses the file with `yaml`, which also gives the
 * syntax errors their tested wording and place:
 *
 * - js-yaml rejects the text (syntax errors, duplicate keys, nesting deeper than 100, …);
 * - the text uses anchors, aliases or tags (so the alias cap of the `yaml` path applies), a
 *   directive, explicit or non-string keys, tabs in indentation, or one of the few constructs where
 *   the two parsers are known to disagree (see PRECISE_ONLY in precise-only.ts and the listener below; each rule was
 *   found by differential fuzzing against `yaml` and is pinned by test/config/fast-yaml.test.ts).
 *
 * The checks are conservative: a rule may send a harmless file to the `yaml` path (slower, same
 * answer), never the other way round.
 */

/**
 * js-yaml's own CORE_SCHEMA differs from `yaml`'s in a few corners (it reads 0b101, -0x1F and
 * +0o7 as numbers, +.5 as a string, -0 as 0), so the implicit types are spelt out here.
 *
 * They are one type: js-yaml asks each implicit type in turn about every plain scalar, and most
 * scalars are names and URLs that a look at their first character rules out at once. (Four types,
 * asked in turn through one call site, cost about a fifth of the parse.) The tag js-yaml then
 * records is not seen: only the value is kept.
 */
function withCoreScalars(jsYaml: typeof import('js-yaml')): NonNullable<LoadOptions['schema']> {
  return jsYaml.FAILSAFE_SCHEMA.extend({
    implicit: [new jsYaml.Type('tag:yaml.org,2002:core-scalar', { kind: 'scalar', resolve: (text: string) => coreScalarKind(text) !== STRING, construct: coreScalarValue })],
  })
}

/**
 * js-yaml, loaded for the first file the block reader does not take (plain block YAML, what most
 * files are, never loads it): from the one file the build makes of it (scripts/bundle.js), with
 * its code cache; from the package when running from the sources.
 */
let reader: { load: typeof import('js-yaml').load; schema: NonNullable<LoadOptions['schema']> } | undefined
function jsYamlReader(): NonNullable<typeof reader> {
  if (!reader) {
    const jsYaml = (requireBuilt(new URL('./js-yaml.bundle.cjs', import.meta.url)) ?? createRequire(import.meta.url)('js-yaml')) as typeof import('js-yaml')
    reader = { load: jsYaml.load, schema: withCoreScalars(jsYaml) }
  }
  return reader
}

/** js-yaml's own limit on nesting (its default maxDepth): the listener's stacks hold that many nodes. */
const MAX_DEPTH = 100

/** `yaml` refuses an implicit key longer than 1024 characters; an implicit key sits on one line. */
const MAX_LINE = 1024

export type { ItemRanges }

/**
 * `itemsAtNodes`: each item's range starts where `yaml` puts the item's node (the block reader's
 * ranges, which its fuzzing checks), so an item's own position needs no `yaml` parse.
 */
export type FastParse = { ok: true; data: unknown; items?: ItemRanges; itemsAtNodes?: boolean } | { ok: false; reason: string }

const isSeparator = (c: number) => c === SPACE || c === TAB || c === LF || c === CR

/** Reads `text` (BOM already removed) with js-yaml, or says why the `yaml` path must read it. */
export function parseFast(text: string): FastParse {
  const rule = needsPrecise(text)
  if (rule !== undefined) return { ok: false, reason: `text: ${rule}` }
  if (hasLongLine(text)) return { ok: false, reason: 'text: a line longer than 1024 characters' }
  const block = parseBlockYaml(text)
  if (block) return { ok: true, data: block.data, items: block.items, itemsAtNodes: true }
  return parseWithJsYaml(text)
}

/** js-yaml's reading of a text that passed parseFast's checks of the text (exported for the tests comparing it with block-yaml.ts). */
export function parseWithJsYaml(text: string): FastParse {
  seen = { reason: undefined, depth: 0, topLevel: [], items: [], lineFrom: 0, lineEnd: -1 }
  let data: unknown
  try {
    const { load, schema } = jsYamlReader()
    data = load(text, { schema, listener })
  } catch (error) {
    return { ok: false, reason: `js-yaml: ${(error as Error).message.split('\n')[0]}` }
  }
  const { reason, topLevel } = seen
  if (reason !== undefined) return { ok: false, reason }
  // An empty document: `yaml` gives null, js-yaml undefined.
  if (data === undefined || data === null) return { ok: true, data: null }
  return { ok: true, data, items: itemRanges(data, topLevel) }
}

type TopLevelNode = { kind: string | null; key: unknown; items: number[] | undefined }

/** What the listener found in the text being read (one text at a time: js-yaml reads synchronously). */
let seen: {
  /** Why the text must go to the `yaml` path, once known. */
  reason: string | undefined
  /** How many nodes are open. */
  depth: number
  /** The nodes of the top-level mapping (keys and values in turn), each block list with its items. */
  topLevel: TopLevelNode[]
  /** The items of the top-level node being read: start and end of each. */
  items: number[]
  /** The first line break at or after lineFrom (the text's length when there is none). */
  lineFrom: number
  lineEnd: number
}
/** Per open node, by depth: where js-yaml opened it, and its first character once known (-1 before). */
const opened = new Int32Array(MAX_DEPTH)
const firsts = new Int32Array(MAX_DEPTH)

/**
 * js-yaml reports the start and end of every node. Between the two, this finds the node's first
 * character (past the spaces, line breaks and comments before it), and declines:
 * - a comment straight after a node (`"a"#c`, `[a]#c`): `yaml` wants a space before it;
 * - a quoted or plain scalar, or a flow collection, that spans lines: `yaml` checks their
 *   indentation, js-yaml does not;
 * - a scalar preceded by a comment (`key:`, a comment line, then the value): `yaml` is strict there.
 * (One function for every text, rather than a closure per text: V8 optimizes it once.)
 */
function listener(event: EventType, state: State): void {
  const at = seen
  if (event === 'open') {
    if (at.depth === MAX_DEPTH) at.reason = 'nesting deeper than 100'
    opened[at.depth] = state.position
    firsts[at.depth] = -1
    at.depth++
    return
  }
  const depth = --at.depth
  if (at.reason !== undefined) return
  const input = state.input
  const end = state.position
  if (input.charCodeAt(end) === HASH && !isSeparator(input.charCodeAt(end - 1))) {
    at.reason = 'a comment not separated from the value before it'
    return
  }
  const start = contentStart(input, opened[depth])
  const comment = skippedComment
  const kind = state.kind
  if (depth === 2) at.items.push(start, end)
  else if (depth === 1) {
    // Only a block list (`- …` lines) has its items as its direct children: js-yaml may wrap a
    // value written on the next line (`key:` then `  [a, b]`) in a second node.
    const blockList = kind === 'sequence' && input.charCodeAt(start) === MINUS
    at.topLevel.push({ kind, key: kind === 'scalar' ? state.result : undefined, items: blockList ? at.items : undefined })
    at.items = []
  }
  if (start >= end) return
  const first = input.charCodeAt(start)
  if (kind === 'scalar') {
    if (comment) {
      at.reason = 'a value after a comment line'
      return
    }
    if (first === PIPE || first === GREATER) return
  } else if (first === BRACKET_OPEN || first === BRACE_OPEN) {
    // A [ ] or { } that is a key of a { } mapping (`{ {a: 1} }`, `{x: 1, [a]}`): js-yaml turns
    // it into "[object Object]" or "a", `yaml` into "{ a: 1 }" or "[ a ]".
    const parent = depth - 1
    if (parent >= 0) {
      if (firsts[parent] < 0) firsts[parent] = input.charCodeAt(contentStart(input, opened[parent]))
      if (firsts[parent] === BRACE_OPEN) {
        let before = start - 1
        while (before >= 0 && isSeparator(input.charCodeAt(before))) before--
        const c = input.charCodeAt(before)
        if (c === BRACE_OPEN || c === COMMA) {
          at.reason = 'a [ ] or { } used as a key'
          return
        }
      }
    }
  } else {
    return
  }
  // A key and its value share a line: the line's end, once found, answers for both.
  if (start < at.lineFrom || start > at.lineEnd) {
    at.lineFrom = start
    at.lineEnd = input.indexOf('\n', start)
    if (at.lineEnd < 0) at.lineEnd = input.length
  }
  if (at.lineEnd < end) at.reason = 'a quoted or plain value, or a [ ] or { } collection, over several lines'
}

/** The items of each top-level list, if the nodes seen are exactly the top-level mapping's keys and values. */
function itemRanges(data: unknown, topLevel: readonly TopLevelNode[]): ItemRanges | undefined {
  if (typeof data !== 'object' || Array.isArray(data)) return undefined
  const keys = Object.keys(data as object)
  if (topLevel.length !== keys.length * 2) return undefined
  const ranges = new Map<string, number[]>()
  for (let i = 0; i < topLevel.length; i += 2) {
    const key = keys[i / 2]
    if (topLevel[i].kind !== 'scalar' || String(topLevel[i].key) !== key) return undefined
    const items = topLevel[i + 1].items
    const list = (data as Record<string, unknown>)[key]
    if (items && Array.isArray(list) && items.length === list.length * 2) ranges.set(key, items)
  }
  return ranges
}

function hasLongLine(text: string): boolean {
  if (text.length <= MAX_LINE) return false
  let start = 0
  for (;;) {
    const end = text.indexOf('\n', start)
    if ((end < 0 ? text.length : end) - start > MAX_LINE) return true
    if (end < 0) return false
    start = end + 1
  }
}

/** Whether the last call of contentStart passed a comment. */
let skippedComment = false

/** Where a node's content starts: past the spaces, line breaks and comments from `from`. */
function contentStart(input: string, from: number): number {
  let start = from
  skippedComment = false
  for (;;) {
    const c = input.charCodeAt(start)
    if (isSeparator(c)) start++
    else if (c === HASH) {
      skippedComment = true
      const lineEnd = input.indexOf('\n', start)
      start = lineEnd < 0 ? input.length : lineEnd
    } else return start
  }
}
