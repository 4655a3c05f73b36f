import { Document, Pair, Scalar, YAMLMap, YAMLSeq, type Node } from 'yaml'
import type { KindName } from '../core/types.js'
import { escapeTemplate } from '../config/interpolate.js'
import { escapeControls, hasCommandLine } from '../core/redaction.js'
import { printable } from '../core/printable.js'
import { KINDS } from '../resources/index.js'
import type { FieldRule, ResourceKind } from '../resources/kind.js'
import { isObject } from '../core/json.js'
import { Reference, type SecretNote } from './secrets.js'
import type { Selected } from './select.js'

export interface ImportSection {
  kind: KindName
  /** Sorted by id. */
  resources: Selected[]
}

/** A list of short scalars reads best on one line: `weekdays: [1, 2, 3]`, `labels: [production, pci]`. */
const FLOW_WIDTH = 60

/**
 * Strings that YAML 1.1 readers (older editors and tools) take for something else: YAML 1.1's
 * booleans, its integers and floats (with `_`, in binary, in base 60 as times are: `1_000`,
 * `0b101`, `1:30`, `190:20:30`), its dates and timestamps (`2025-06-01`), and `<<` and `=`, values
 * of types of their own (merge, value) that such readers refuse. (What YAML 1.2 itself would
 * retype, the yaml library quotes.)
 */
const YAML11_LOOKALIKE =
  /^(?:y|yes|n|no|on|off|true|false|null|~|<<|=|[-+]?0b[01_]+|[-+]?0x[\da-f_]+|[-+]?\d[\d_]*(?::[0-5]?\d)*(?:\.[\d_]*)?(?:e[-+]?\d+)?|[-+]?\.[\d_]+(?:e[-+]?\d+)?|[-+]?\.inf|\.nan|\d{4}-\d\d?-\d\d?(?:(?:t|[ \t]+)\d\d?:\d\d:\d\d(?:\.\d*)?(?:[ \t]*(?:z|[-+]\d\d?(?::\d\d)?))?)?)$/i

function scalar(value: unknown): Scalar {
  if (value instanceof Reference) return new Scalar(String(value))
  if (typeof value !== 'string') return new Scalar(value)
  const node = new Scalar(escapeTemplate(value))
  // "22:00" and "yes" are strings in YAML 1.2 but a number and a boolean to YAML 1.1 readers: quoted.
  if (YAML11_LOOKALIKE.test(value)) node.type = Scalar.QUOTE_DOUBLE
  // A text of lines, one of which ends in spaces or tabs ("a \nb", " \n", "\n  \n"), or ending in
  // blank lines ("a\n\n\n") or holding more than two in a row: the yaml library writes it as a block
  // scalar (|-, |+) whose lines keep those spaces, or followed by those blank lines (at the end of the
  // file for the last field). yamllint's default trailing-spaces and empty-lines (at most two blank
  // lines, none at the end) refuse them, and the fixers run on every commit
  // (pre-commit's trailing-whitespace and end-of-file-fixer, an editor trimming on save) remove
  // them, changing the value; a text of blank lines holding spaces even read back without them.
  // Quoted, each reads back as it is whatever trims the lines.
  else if (value.includes('\n') && /[ \t]\n|[ \t]$|\n\n$|\n{4}/.test(value)) node.type = Scalar.QUOTE_DOUBLE
  // On stdout the output step writes `##[` as `##\u005b` and an indented line's leading `::` as
  // `\u003a:`, and (in a file too) the line and paragraph separators, DEL, C1 controls and
  // bidirectional marks as `\uXXXX` (core/redaction.ts): escapes that only a double-quoted string
  // reads back as those characters.
  else if (value.includes('##[') || hasCommandLine(value) || escapeControls(value) !== value) node.type = Scalar.QUOTE_DOUBLE
  return node
}

const isOneLine = (value: unknown) =>
  value === null || value instanceof Reference || (typeof value !== 'object' && !(typeof value === 'string' && value.includes('\n')))
const isFlatMap = (value: unknown): value is Record<string, unknown> =>
  isObject(value) && !(value instanceof Reference) && Object.values(value).every(isOneLine)

/** Roughly the width of a value written on one line. */
function inlineWidth(value: unknown): number {
  if (isFlatMap(value)) return Object.entries(value).reduce((sum, [key, member]) => sum + key.length + String(member).length + 4, 2)
  return String(value).length + (typeof value === 'string' && YAML11_LOOKALIKE.test(value) ? 2 : 0) + 2
}

/**
 * Written on one line: what the kind compares as a set (labels, teams, weekdays, short path
 * lists), when short, and references (`scanning_agent: {id: …}`). Lists of items such as headers,
 * and every other mapping, are blocks.
 */
function isInline(value: unknown, rule: FieldRule | undefined): boolean {
  if (Array.isArray(value)) {
    const asSet = rule?.type === 'set' || (rule?.type === 'keyed' && rule.display === 'whole')
    const short = value.every((item) => isOneLine(item) || isFlatMap(item)) && value.reduce((sum: number, item) => sum + inlineWidth(item), 0) <= FLOW_WIDTH
    return asSet && value.length > 0 && short
  }
  return rule?.type === 'reference' && isFlatMap(value)
}

/**
 * How the files are written: no value folded (lineWidth 0), flow collections as `[a, b]`, and a
 * double-quoted text always on one line with its `\n` escapes: the yaml library otherwise breaks one
 * longer than 40 characters at its line feeds, ending a line in `\ ` where a line of the text ends
 * in a space, which whitespace fixers trim into a line continuation.
 */
const WRITE_OPTIONS = { lineWidth: 0, flowCollectionPadding: false, doubleQuotedMinMultiLineLength: Number.POSITIVE_INFINITY }

const join = (base: string, member: string) => (base ? `${base}.${member}` : member)

function toNode(value: unknown, rulePath: string, kind: ResourceKind, inline: boolean): Node {
  const flow = inline || isInline(value, kind.rules[rulePath])
  if (Array.isArray(value)) {
    const seq = new YAMLSeq()
    for (const item of value) seq.items.push(toNode(item, rulePath, kind, flow))
    // An empty list is written `[]` on the key's line, not `key:` with `[]` below it.
    seq.flow = flow || value.length === 0
    return seq
  }
  if (isObject(value) && !(value instanceof Reference)) return mapNode(value, rulePath, kind, flow || Object.keys(value).length === 0)
  return scalar(value)
}

function mapNode(value: Record<string, unknown>, rulePath: string, kind: ResourceKind, flow: boolean): YAMLMap {
  const map = new YAMLMap()
  for (const [key, member] of Object.entries(value)) map.items.push(new Pair(new Scalar(key), toNode(member, join(rulePath, key), kind, flow)))
  map.flow = flow
  return map
}

/** The comment above a resource that holds secrets: which variable to set for which field (as plans print it: a list key from the service made printable). */
export function secretComment(notes: SecretNote[]): string | undefined {
  if (notes.length === 0) return undefined
  const lines: string[] = []
  const written = notes.filter((note) => note.written)
  const leftOut = notes.filter((note) => !note.written)
  if (written.length > 0) {
    lines.push('Secrets: set these environment variables to the values before plan or apply')
    for (const note of written) {
      lines.push(`  ${note.variable}: ${printable(note.field)}${note.hidden ? ' (the service hides it; plan reports it "not yet tracked" until the first apply)' : ''}`)
    }
  }
  for (const note of leftOut) {
    const dot = note.field.lastIndexOf('.')
    const parent = dot < 0 ? '' : note.field.slice(0, dot)
    const member = note.field.slice(dot + 1).replace(/\[.*$/, '')
    const where = parent ? `add under ${printable(parent)}:` : 'add to the resource:'
    if (note.holds) {
      const reason = `it holds ${note.holds.length === 1 ? 'a secret' : 'secrets'}: ${note.holds.map((field) => printable(field)).join(', ')}`
      lines.push(`Left out: ${printable(note.field)} (${reason}). To manage it, set ${note.variable} and ${where}`)
      lines.push(...partLines(member, note.part))
      continue
    }
    const why = note.hidden ? 'the service hides it' : 'a secret'
    lines.push(`Left out: ${printable(note.field)} (${why}). To manage it, set ${note.variable} and ${where}`)
    lines.push(`  ${member}: \${${note.variable}}`)
  }
  return lines.map((line) => ` ${line}`).join('\n')
}

/** The comment above a resource some of whose live values no configuration can declare: they stay unmanaged. */
export function leftOutComment(leftOut: Selected['leftOut']): string | undefined {
  if (leftOut.length === 0) return undefined
  return leftOut.map((item) => ` Left out: ${printable(item.field)} (${item.reason}); it stays as it is on the service`).join('\n')
}

/** A left-out part as the lines to add, indented under the comment. */
function partLines(member: string, part: unknown): string[] {
  const doc = new Document()
  const map = new YAMLMap()
  map.items.push(new Pair(new Scalar(member), toPlainNode(part)))
  doc.contents = map
  return doc.toString(WRITE_OPTIONS).trimEnd().split('\n').map((text) => `  ${text}`)
}

function toPlainNode(value: unknown): Node {
  if (Array.isArray(value)) {
    const seq = new YAMLSeq()
    for (const item of value) seq.items.push(toPlainNode(item))
    return seq
  }
  if (isObject(value) && !(value instanceof Reference)) {
    const map = new YAMLMap()
    for (const [key, member] of Object.entries(value)) map.items.push(new Pair(new Scalar(key), toPlainNode(member)))
    return map
  }
  return scalar(value)
}

/**
 * The configuration file for the imported resources: the schema line, then each kind's list,
 * resources in the order given, fields in the order selected. Same input, same bytes.
 */
export function renderImport(sections: ImportSection[], schema: string): string {
  const root = new YAMLMap()
  // A path, or a whole first-line comment (`yaml-language-server: …`, or advice when there is none).
  root.commentBefore = ` ${schema.includes(' ') ? schema : `yaml-language-server: $schema=${schema}`}`
  for (const section of sections) {
    const seq = new YAMLSeq()
    section.resources.forEach((resource, index) => {
      const item = mapNode({ id: resource.id, ...resource.fields }, '', KINDS[section.kind], false)
      const comment = [secretComment(resource.notes), leftOutComment(resource.leftOut)].filter((part) => part !== undefined).join('\n')
      // The YAML writer starts a comment line after a line or paragraph separator as after a line
      // feed ("  #" inside a value of the lines to add): such characters are written as the escapes
      // a double-quoted value (scalar) reads back; in the comment's words they read as on stdout.
      if (comment) item.commentBefore = escapeControls(comment)
      if (index > 0) item.spaceBefore = true
      seq.items.push(item)
    })
    root.items.push(new Pair(new Scalar(KINDS[section.kind].list), seq))
  }
  const doc = new Document()
  doc.contents = root
  return doc.toString(WRITE_OPTIONS)
}
