import type { Mode } from './options.js'
import { outcomeOf, type FieldRow, type ResourceRow } from './rows.js'
import { printable } from './value.js'
import {
  actionMark,
  applySummaryLine,
  groupThousands,
  leadSummary,
  OUTCOME_MARK,
  outcomeText,
  plural,
  resourceLabel,
  summaryLine,
  type ApplySummary,
  type PlanSummary,
} from './words.js'

/**
 * A pull-request comment: a heading, the summary, a table of the changed resources, then a
 * collapsible section per resource with its fields. Kept under `limit` characters by dropping
 * the sections (then table rows) that do not fit, with a note that says how many.
 */
export function markdownPlan(resources: readonly ResourceRow[], summary: PlanSummary, mode: Mode, limit: number, reserved = 0): string {
  const drift = mode === 'drift'
  const head = [drift ? '### scansync drift' : '### scansync plan']
  head.push(`**${leadSummary(mode, resources.length, summaryLine(mode, summary))}**`)
  const columns = drift ? ['Service', 'Configuration'] : ['Before', 'After']
  return fit(
    {
      head,
      tableHead: ['', 'Kind', 'Id', 'Name', 'Fields changed'],
      tableRows: resources.map((resource) => [
        actionMark(resource),
        escapeText(resource.kind),
        resource.id === '' ? '' : code(resource.id),
        escapeText(clip(resource.name ?? '', MAX_NAME)),
        fieldList(resource.fields),
      ]),
      sections: resources.map((resource) =>
        section(`${actionMark(resource)} ${resourceLabel(resource)} (${plural(resource.fields.length, 'field', 'fields')})`, [fieldTable(resource.fields, columns)]),
      ),
      fullOutput: drift ? 'run `scansync drift` locally for the full report' : 'run `scansync plan` locally for the full plan',
    },
    limit,
    reserved,
  )
}

/** The apply report as a comment: the summary, a table of outcomes, a section per change. */
export function markdownReport(resources: readonly ResourceRow[], summary: ApplySummary, interrupted: boolean, limit: number, reserved = 0): string {
  const head = ['### scansync apply']
  head.push(`**${leadSummary('apply', resources.length, applySummaryLine(summary))}**`)
  return fit(
    {
      head,
      tableHead: ['', 'Kind', 'Id', 'Name', 'Result'],
      tableRows: resources.map((resource) => {
        const outcome = outcomeOf(resource)
        return [
          OUTCOME_MARK[outcome.result],
          escapeText(resource.kind),
          code(resource.id),
          escapeText(clip(resource.name ?? '', MAX_NAME)),
          escapeText(clip(outcomeText(outcome, interrupted, resource.action), MAX_RESULT)),
        ]
      }),
      sections: resources.map((resource) => {
        const outcome = outcomeOf(resource)
        const title = `${OUTCOME_MARK[outcome.result]} ${resourceLabel(resource)} ${outcomeText({ ...outcome, error: undefined }, interrupted, resource.action)}`
        const body: string[] = []
        if (outcome.error !== undefined) body.push(`**Error:** ${escapeText(clip(outcome.error, MAX_MESSAGE))}`)
        if (outcome.warnings.length > 0) body.push(outcome.warnings.map((w) => `- **Warning:** ${escapeText(clip(w, MAX_MESSAGE))}`).join('\n'))
        body.push(fieldTable(resource.fields, ['Before', 'After']))
        return section(`${title}, ${plural(resource.fields.length, 'field', 'fields')}`, body)
      }),
      // A cut comment lists first what was not applied (or applied with a warning): 17 failures
      // among 3,000 changes were left out past the first thousand rows.
      keep: resources.map((resource) => {
        const outcome = outcomeOf(resource)
        return outcome.result !== 'applied' || outcome.warnings.length > 0
      }),
      keptWord: 'each of them applied',
      fullOutput: 'the text output (`--format text`) has the full report',
    },
    limit,
    reserved,
  )
}

/** The longest value printed in a cell, and the longest result or message. */
const MAX_VALUE = 1_000
/** The longest name in a table cell or a section's title (a name is a value someone typed, of any length). */
export const MAX_NAME = 300
const MAX_RESULT = 300
const MAX_MESSAGE = 2_000
/** How many field paths the summary table names before "and N more". */
const LISTED_FIELDS = 5

interface Layout {
  /** Blocks always printed: heading and summary. */
  head: string[]
  tableHead: string[]
  /** Cells already escaped; one row per resource. */
  tableRows: string[][]
  /** One per resource, in the same order as the rows. */
  sections: string[]
  /** What to do to see everything: "run `scansync plan` locally for the full plan". */
  fullOutput: string
  /** Rows listed before the others when the table is cut (shown in their order among the rows kept). */
  keep?: readonly boolean[]
  /** What every row left out is when none of them is kept first: "each of them applied". */
  keptWord?: string
}

// Blocks are separated by a blank line (a table must end at one) and the text ends with a newline.
const SEPARATOR = '\n\n'
const join = (blocks: readonly string[]) => blocks.join(SEPARATOR) + '\n'

/**
 * `reserved`: characters the caller adds after the comment (the policy violations, the resources no
 * file declares), which the limit counts too.
 */
function fit(layout: Layout, limit: number, reserved: number): string {
  const total = layout.sections.length
  if (total === 0) return join(layout.head)
  const tableHead = `${tableLine(layout.tableHead)}\n${tableLine(layout.tableHead.map(() => '---'))}`
  const rows = layout.tableRows.map(tableLine)
  const full = join([...layout.head, [tableHead, ...rows].join('\n'), ...layout.sections])
  if (full.length + reserved <= limit) return full

  const limitText = `the comment limit is ${groupThousands(limit)} characters`
  const count = (n: number, one: string, many: string) => `${groupThousands(n)} ${n === 1 ? one : many}`
  /** The closing note: what was left out, why, and where to see it all. */
  const note = (listed: number, shown: number, restPlain = false) => {
    const what =
      listed < total
        ? `${count(total - listed, 'more changed resource', 'more changed resources')} not listed above${restPlain ? ` (${layout.keptWord})` : ''}, and no resource details shown`
        : shown === 0
          ? `the details of ${count(total, 'resource are', 'resources are')} not shown`
          : `${count(total - shown, 'more resource', 'more resources')} not shown`
    return `_… ${what} (${limitText}); ${layout.fullOutput}._`
  }

  const blocks = [...layout.head]
  let used = join(blocks).length
  // Room kept for the closing note, at its longest.
  const reserve = SEPARATOR.length + Math.max(note(0, 0, layout.keptWord !== undefined).length, note(total, 0).length, note(total, 1).length)
  const fits = (length: number) => used + SEPARATOR.length + length + reserve + reserved <= limit
  const add = (block: string) => {
    blocks.push(block)
    used += SEPARATOR.length + block.length
  }

  // The table, or as many of its rows as fit: those to keep first, then the others in order; the
  // rows chosen are printed in their order.
  const chosen = new Array<boolean>(rows.length).fill(false)
  let length = tableHead.length
  let listed = 0
  const choose = (wanted: (index: number) => boolean) => {
    for (let i = 0; i < rows.length; i++) {
      if (chosen[i] || !wanted(i)) continue
      if (!fits(length + 1 + rows[i]!.length)) return false
      chosen[i] = true
      length += 1 + rows[i]!.length
      listed++
    }
    return true
  }
  const keep = layout.keep
  const keptAll = keep === undefined || choose((i) => keep[i] === true)
  if (keptAll) choose(() => true)
  const table = [tableHead, ...rows.filter((_, i) => chosen[i])].join('\n')
  if (listed > 0) add(table)
  // Then whole sections, in order, while they fit (only under a whole table: the note counts from there).
  let shown = 0
  while (listed === total && shown < total && fits(layout.sections[shown]!.length)) add(layout.sections[shown++]!)
  blocks.push(note(listed, shown, keep !== undefined && keptAll && layout.keptWord !== undefined))
  return join(blocks)
}

function tableLine(cells: readonly string[]): string {
  return `|${cells.map((cell) => (cell === '' ? ' ' : ` ${cell} `)).join('|')}|`
}

/** `<details><summary>title</summary>` then the body blocks; the blank lines let Markdown render inside. */
function section(title: string, body: readonly string[]): string {
  return [`<details><summary>${escapeHtml(clip(title, MAX_NAME * 2))}</summary>`, ...body, '</details>'].join(SEPARATOR)
}

function fieldTable(fields: readonly FieldRow[], columns: readonly string[]): string {
  const lines = [tableLine(['Field', ...columns]), tableLine(['---', '---', '---'])]
  for (const field of fields) {
    const reason = field.reason === undefined ? '' : ` (${escapeText(field.reason)})`
    const [before, after] = field.items
      ? [field.items.removed.map((item) => `- ${item}`).join('\n'), field.items.added.map((item) => `+ ${item}`).join('\n')]
      : [field.beforeText, field.afterText]
    const [shownBefore, shownAfter] = clipPair(before, after, MAX_VALUE)
    lines.push(tableLine([code(clip(field.path, MAX_NAME)), code(shownBefore), code(shownAfter) + reason]))
  }
  return lines.join('\n')
}

function fieldList(fields: readonly FieldRow[]): string {
  const named = fields.slice(0, LISTED_FIELDS).map((field) => code(clip(field.path, MAX_NAME)))
  const more = fields.length - named.length
  return named.join(', ') + (more > 0 ? ` and ${more} more` : '')
}

/** Text in monospace inside a table cell (HTML `<code>`, since a code span cannot hold an escaped backtick). */
function code(text: string): string {
  return `<code>${escapeText(text)}</code>`
}

/**
 * A Markdown table cut to `budget` characters: `head` (its heading lines), then the rows of as many
 * items as fit, room kept for the line that counts the rest (`more`, of up to `total` items, so that
 * it always fits). The caller adds that line when `shown` is short of its count.
 */
export function rowsWithin<T>(head: readonly string[], items: readonly T[], rowOf: (item: T) => string, budget: number, more: (left: number) => string, total = items.length): { lines: string[]; shown: number } {
  const lines = [...head]
  let used = lines.join('\n').length + 2 + more(total).length
  let shown = 0
  for (const item of items) {
    const row = rowOf(item)
    if (used + 1 + row.length > budget) break
    lines.push(row)
    used += 1 + row.length
    shown++
  }
  return { lines, shown }
}

/** A long value cut to `max` characters, saying how much was cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text
  let end = max
  const last = text.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end-- // do not split a surrogate pair
  return `${text.slice(0, end)}… (${groupThousands(text.length - end)} more characters)`
}

/**
 * Two long values cut so that where they differ shows: both cut at the same place looked equal when
 * they differed past it (a 4 KB login payload changed by one character). When the first difference
 * lies past what `clip` keeps, both start a little before it, saying how much was left out before.
 */
export function clipPair(before: string, after: string, max: number): [string, string] {
  let first = 0
  while (first < before.length && first < after.length && before.charCodeAt(first) === after.charCodeAt(first)) first++
  if (before === after || first < max - CONTEXT) return [clip(before, max), clip(after, max)]
  let start = first - CONTEXT
  const code = before.charCodeAt(start)
  if (code >= 0xdc00 && code <= 0xdfff) start-- // do not split a surrogate pair
  const from = (text: string) => `(${groupThousands(start)} characters before) …${clip(text.slice(start), max)}`
  return [from(before), from(after)]
}

/** How many equal characters are shown before the first difference of a clipped pair. */
const CONTEXT = 100

/**
 * User data inside Markdown (a table cell or a paragraph): nothing in it can end the cell
 * (`|`, newline), open a code span, emphasis or link, inject HTML, or mention someone.
 * `keepInvisible`: a file's name, its joiners kept (printable).
 */
export function escapeText(text: string, options: { keepInvisible?: boolean } = {}): string {
  return neutraliseMentions(
    printable(text.replace(/\r\n?/g, '\n'), { keepNewlines: true, ...options })
      .replace(/[\\`*_[\]~|]/g, '\\$&')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/\n/g, '<br>'),
  )
}

/** User data inside an HTML block (the `<summary>` line), where Markdown is not parsed. */
export function escapeHtml(text: string): string {
  return neutraliseMentions(
    printable(text.replace(/\r\n?|\n/g, ' '))
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;'),
  )
}

/** `@team` in a name or value would notify people: a zero-width space after the `@` keeps it as text. */
function neutraliseMentions(text: string): string {
  return text.replace(/(^|[^A-Za-z0-9_])@(?=[A-Za-z0-9])/g, '$1@\u200b')
}
