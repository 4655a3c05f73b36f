import type { SourcePosition } from '../core/diagnostics.js'
import type { Missing, Unmanaged } from '../plan/model.js'
import type { KindName } from '../core/types.js'
import { workflowCommand, type AnnotationFile } from './github.js'
import { clip, escapeText, MAX_NAME, rowsWithin } from './markdown.js'
import { printable } from './value.js'
import { resourceLabel } from './words.js'

/*
 * The lists of resources drift reports besides changed fields, in each format: the live targets
 * and agents no file declares (`drift --unmanaged`), and the resources declared by id that the
 * service no longer has. Both count as drift; the summary line says how many, after what it
 * already says.
 */

/** A resource such a list names. */
interface Listed {
  kind: KindName
  id: string
  name: string | null
  /** Where a file declares it (a missing resource); none for what no file declares. */
  source?: SourcePosition
}

/** How one list reads. */
export interface ResourceList<T extends Listed = Listed> {
  heading: string
  /** What stands for `No drift. ` before the summary line above such a list (that would be wrong there). */
  lead: string
  /** The line's mark in text: `? target 9XcVbN5mQwEr "Promo"`. */
  mark: string
  /** What the summary line grows by: `…, 5 in sync` + `, 2 not declared in any file`. */
  counted(count: number): string
  /** A line in text after the resource's label (empty: none). */
  after(item: T): string
  /** The annotation's title and its message about the resource's label. */
  annotation: { title: string; message(label: string): string }
  /** The Markdown table's last column, if any. */
  column?: { heading: string; cell(item: T): string }
  /** Said under a Markdown table cut short. */
  more: string
}

export const UNMANAGED: ResourceList<Unmanaged> = {
  heading: 'Live resources no file declares (review them, then declare or import them):',
  lead: 'No declared resource drifted. ',
  mark: '?',
  counted: (count) => `, ${count} not declared in any file`,
  after: () => '',
  annotation: { title: 'scansync drift: not declared', message: (label) => `${label} is on the service but declared in no file` },
  more: 'run `scansync drift --unmanaged` locally for the whole list.',
}

// The file's name as it is found (a Persian name's zero-width non-joiner kept: keepInvisible), as an error line writes it.
const at = (source: SourcePosition) => `${source.file}:${source.line}`

export const MISSING: ResourceList<Missing> = {
  heading: 'Declared resources the service no longer has (deleted by hand? remove them from the files, or restore them):',
  lead: '',
  mark: '!',
  counted: (count) => `, ${count} declared by id but gone from the service`,
  after: (item) => ` (declared at ${printable(at(item.source), { keepInvisible: true })})`,
  annotation: { title: 'scansync drift: gone from the service', message: (label) => `${label} is declared here, but the service no longer has it (deleted by hand?)` },
  column: { heading: 'Declared at', cell: (item) => `<code>${escapeText(at(item.source), { keepInvisible: true })}</code>` },
  more: 'run `scansync drift` locally for the whole list.',
}

/** `target 9XcVbN5mQwEr "Promo"`; by its id alone when its name is hidden, as the plan heads a changed resource. */
const label = (item: Listed): string => resourceLabel(item)

/**
 * `Drift: 0 resources differ …, 5 in sync.` → `…, 5 in sync, 2 not declared in any file.` On a
 * terminal the text summary is bold: its colour codes close the line, after the full stop.
 */
const withCount = <T extends Listed>(summary: string, list: ResourceList<T>, count: number): string =>
  // eslint-disable-next-line no-control-regex
  summary.replace(/\.((?:\x1b\[[0-9;]*m)*)$/, (_, codes: string) => `${list.counted(count)}.${codes}`)

/** "No drift." would be wrong above such a list (led by `**` in Markdown, by colour codes on a terminal). */
const noDeclaredDrift = (rendered: string, list: Pick<ResourceList, 'lead'>) =>
  // eslint-disable-next-line no-control-regex
  rendered.replace(/^((?:\*\*|\x1b\[[0-9;]*m)*)No drift\. /m, (_, lead: string) => `${lead}${list.lead}`)

/** The text plan with a block of `? target ID "name"` lines above its summary line. */
export function textList<T extends Listed>(rendered: string, list: ResourceList<T>, items: readonly T[]): string {
  if (items.length === 0) return rendered
  const lines = noDeclaredDrift(rendered, list).replace(/\n$/, '').split('\n')
  const summary = lines.pop()!
  return [...lines, list.heading, ...items.map((item) => `${list.mark} ${label(item)}${list.after(item)}`), '', withCount(summary, list, items.length)].join('\n') + '\n'
}

/** An error annotation per resource (drift fails the check), at its YAML line when a file declares it, above the summary line. */
export function githubList<T extends Listed>(rendered: string, list: ResourceList<T>, items: readonly T[], fileOf?: AnnotationFile): string {
  if (items.length === 0) return rendered
  const lines = noDeclaredDrift(rendered, list).replace(/\n$/, '').split('\n')
  const summary = lines.pop()!
  const annotations = items.map((item) => workflowCommand('error', item.source, list.annotation.title, list.annotation.message(label(item)), fileOf))
  return [...lines, ...annotations, withCount(summary, list, items.length)].join('\n') + '\n'
}

/**
 * A section at the end of the comment: a table of kind, id and name, with no more rows than fit in
 * `budget` characters (the rest counted).
 */
export function markdownListSection<T extends Listed>(list: ResourceList<T>, items: readonly T[], budget = Infinity): string {
  if (items.length === 0) return ''
  const column = list.column
  const more = (left: number) => `_… and ${left} more: ${list.more}_`
  const { lines, shown } = rowsWithin(
    [`#### ${escapeText(list.heading)}`, '', `| | Kind | Id | Name |${column ? ` ${column.heading} |` : ''}`, `| --- | --- | --- | --- |${column ? ' --- |' : ''}`],
    items,
    (item) => `| ${list.mark} | ${escapeText(item.kind)} | <code>${escapeText(item.id)}</code> | ${item.name === null ? ' ' : escapeText(clip(item.name, MAX_NAME))} |${column ? ` ${column.cell(item)} |` : ''}`,
    budget,
    more,
  )
  if (items.length > shown) lines.push('', more(items.length - shown))
  return lines.join('\n') + '\n'
}

/** The comment with its summary counting the list's resources, and `section` (markdownListSection) after it. */
export function markdownList<T extends Listed>(rendered: string, list: ResourceList<T>, items: readonly T[], section = markdownListSection(list, items)): string {
  if (items.length === 0) return rendered
  const summary = noDeclaredDrift(rendered, list).replace(/\*\*((?:No declared resource drifted\. )?Drift: [^*]*)\*\*/, (_, text: string) => `**${withCount(text, list, items.length)}**`)
  return summary.replace(/\n$/, '') + '\n\n' + section
}
