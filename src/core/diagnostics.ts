import { groupThousands } from './thousands.js'
import { SENSITIVE } from './sensitive.js'
import { printable } from './printable.js'

/** A problem found in a configuration file, located at the YAML node it concerns. */
export interface Diagnostic {
  file: string
  line: number
  column: number
  /** Dotted path of the offending value inside the file (`targets[0].site.name`), or "" for the file. */
  path: string
  message: string
  /**
   * The resource the message opens with (`target a1` in `target a1: labels[1]: …`), when it opens
   * with one: the same mistake in a block many resources merge is then said once (groupRepeated).
   */
  subject?: string
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
  // own name, config/find-files.ts) is written as an escape; so are, in the message, the characters
  // with no glyph (`no agent is named "lisbon\u200b"; did you mean "lisbon"?`), as a plan writes them.
  return `${fileAtLineStart(oneLine(d.file))}:${d.line}:${d.column}: ${printable(oneLine(d.message))}`
}

/**
 * A file's name where it opens a line (`FILE:LINE:COLUMN: …`, errors and policy violations): a
 * CI runner reads a line starting with `::` (after white space) as a workflow command, and git
 * stores a file named `::stop-commands::x.yaml`, shown so from the configuration's own folder. Such
 * a name is written `./::stop-commands::x.yaml`: the same file, and the line is no command.
 */
export const fileAtLineStart = (file: string): string => (/^\s*::/.test(file) ? `./${file}` : file)

const oneLine = (text: string) => text.replace(LINE_BREAKS, (c) => LINE_BREAK_ESCAPES[c] ?? c)
const LINE_BREAKS = /[\n\r\u2028\u2029]/g
/** Whether a text holds a line break: printed as it is, it would be two lines. */
export const hasLineBreak = (text: string): boolean => /[\n\r\u2028\u2029]/.test(text)
const LINE_BREAK_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\u2028': '\\u2028', '\u2029': '\\u2029' }

/** How many resources a grouped problem names before "and N more". */
const NAMED_IN_GROUP = 5

/**
 * Problems that are one mistake written once, in a block that several resources merge or alias
 * (the same place, the same words after the resource's name), as one problem naming them all:
 * a typo in a blackout window 2,000 targets merge is one line, not 2,000. Order is kept (each
 * group where its first problem was).
 */
export function groupRepeated(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  // `named`: the subjects already in the list, looked up at once (a list searched for each of 50,000 took minutes).
  const groups = new Map<string, { first: Diagnostic; rest: string; subjects: string[]; named: Set<string> }>()
  const out: Array<Diagnostic | { group: string }> = []
  for (const d of diagnostics) {
    const subject = d.subject
    if (subject === undefined || !d.message.startsWith(`${subject}: `)) {
      out.push(d)
      continue
    }
    const rest = d.message.slice(subject.length + 2)
    const key = JSON.stringify([d.file, d.line, d.column, rest])
    const group = groups.get(key)
    if (group) {
      // A name shown as (sensitive) may be another resource's as well: each counts (three targets are not two).
      if (!group.named.has(subject) || subject.includes(SENSITIVE)) {
        group.subjects.push(subject)
        group.named.add(subject)
      }
      continue
    }
    groups.set(key, { first: d, rest, subjects: [subject], named: new Set([subject]) })
    out.push({ group: key })
  }
  return out.map((entry) => {
    if (!('group' in entry)) return entry
    const { first, rest, subjects } = groups.get(entry.group)!
    if (subjects.length === 1) return first
    const names = namesTogether(subjects)
    return { ...first, subject: names, message: `${names}: ${rest}` }
  })
}

/** `targets a1, a2 and a3`; `targets a1, a2, a3, a4, a5 and 1,995 more`; subjects of other forms listed as they are. */
function namesTogether(subjects: readonly string[]): string {
  const word = /^([a-z]+) /.exec(subjects[0]!)?.[1]
  const sameKind = word !== undefined && subjects.every((s) => s.startsWith(`${word} `))
  const names = sameKind ? subjects.map((s) => s.slice(word!.length + 1)) : [...subjects]
  const shown = names.slice(0, NAMED_IN_GROUP)
  const more = names.length - shown.length
  const list = more > 0 ? `${shown.join(', ')} and ${groupThousands(more)} more` : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`
  return sameKind ? `${word}s ${list}` : list
}

/** By the files' and messages' characters, not the locale's collation (Danish puts "aa" after "z"): the same order on every machine. */
export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) => byCharacters(a.file, b.file) || a.line - b.line || a.column - b.column || byCharacters(a.message, b.message),
  )
}

const byCharacters = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

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
