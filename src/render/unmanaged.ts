import type { Unmanaged } from '../plan/model.js'
import { workflowCommand } from './github.js'
import { escapeText } from './markdown.js'
import { printable } from './value.js'
import { formatValue } from './value.js'

/*
 * `drift --unmanaged`: the live targets and agents no file declares, in each format. They count
 * as drift; the summary line says how many, after what it already says.
 */

const HEADING = 'Live resources no file declares (review them, then declare or import them):'

/** `target 9XcVbN5mQwEr "Promo"` */
const label = (item: Unmanaged) => `${item.kind} ${printable(item.id)}${item.name === null ? '' : ` ${formatValue(item.name)}`}`

/** `Drift: 0 resources differ …, 5 in sync.` → `…, 5 in sync, 2 not declared in any file.` */
function withCount(summary: string, count: number): string {
  return summary.replace(/\.$/, `, ${count} not declared in any file.`)
}

/** "No drift." would be wrong above a list of what no file declares. */
const noDeclaredDrift = (rendered: string) => rendered.replace(/^(\*\*)?No drift\. /m, '$1No declared resource drifted. ')

/** The text plan with a block of `? target ID "name"` lines above its summary line. */
export function textUnmanaged(rendered: string, unmanaged: readonly Unmanaged[]): string {
  if (unmanaged.length === 0) return rendered
  const lines = noDeclaredDrift(rendered).replace(/\n$/, '').split('\n')
  const summary = lines.pop()!
  return [...lines, HEADING, ...unmanaged.map((item) => `? ${label(item)}`), '', withCount(summary, unmanaged.length)].join('\n') + '\n'
}

/** An error annotation per resource (drift fails the check), above the summary line. */
export function githubUnmanaged(rendered: string, unmanaged: readonly Unmanaged[]): string {
  if (unmanaged.length === 0) return rendered
  const lines = noDeclaredDrift(rendered).replace(/\n$/, '').split('\n')
  const summary = lines.pop()!
  const annotations = unmanaged.map((item) => workflowCommand('error', undefined, 'scansync drift: not declared', `${label(item)} is on the service but declared in no file`))
  return [...lines, ...annotations, withCount(summary, unmanaged.length)].join('\n') + '\n'
}

/**
 * A section at the end of the comment: a table of kind, id and name, with no more rows than fit in
 * `budget` characters (the rest counted).
 */
export function markdownUnmanagedSection(unmanaged: readonly Unmanaged[], budget = Infinity): string {
  if (unmanaged.length === 0) return ''
  const lines = [`#### ${escapeText(HEADING)}`, '', '| | Kind | Id | Name |', '| --- | --- | --- | --- |']
  const more = (left: number) => `_… and ${left} more: run \`scansync drift --unmanaged\` locally for the whole list._`
  let used = lines.join('\n').length + 2 + more(unmanaged.length).length
  let shown = 0
  for (const item of unmanaged) {
    const row = `| ? | ${escapeText(item.kind)} | <code>${escapeText(item.id)}</code> | ${item.name === null ? ' ' : escapeText(item.name)} |`
    if (used + 1 + row.length > budget) break
    lines.push(row)
    used += 1 + row.length
    shown++
  }
  if (unmanaged.length > shown) lines.push('', more(unmanaged.length - shown))
  return lines.join('\n') + '\n'
}

/** The comment with its summary counting the resources no file declares, and `section` (markdownUnmanagedSection) after it. */
export function markdownUnmanaged(rendered: string, unmanaged: readonly Unmanaged[], section = markdownUnmanagedSection(unmanaged)): string {
  if (unmanaged.length === 0) return rendered
  const summary = noDeclaredDrift(rendered).replace(/\*\*((?:No declared resource drifted\. )?Drift: [^*]*)\*\*/, (_, text: string) => `**${withCount(text, unmanaged.length)}**`)
  return summary.replace(/\n$/, '') + '\n\n' + section
}
