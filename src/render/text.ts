import { createRequire } from 'node:module'
import type { Mode } from './options.js'
import { outcomeOf, type ResourceRow } from './rows.js'
import { printable } from './value.js'
import {
  actionMark,
  applyRecap,
  applySummaryLine,
  fieldLines,
  leadSummary,
  OUTCOME_MARK,
  outcomeText,
  resourceLabel,
  summaryLine,
  type ApplySummary,
  type PlanSummary,
} from './words.js'

// CommonJS: required, so that Node does not first scan its source for exports as it does for an import.
const pc = createRequire(import.meta.url)('picocolors') as typeof import('picocolors')

const INDENT = '    '

/**
 * One block per changed resource (`~ target ID "name"`, then a line per field), a blank line,
 * then the summary line. Colours only when asked: header yellow, before red, after green,
 * summary bold.
 */
export function textPlan(resources: readonly ResourceRow[], summary: PlanSummary, mode: Mode, color: boolean): string {
  const c = pc.createColors(color)
  const lines: string[] = []
  for (const resource of resources) {
    const creating = resource.action === 'create'
    const drifted = mode === 'drift' ? (creating ? ' (not on the service yet: apply creates it)' : ' (drifted)') : ''
    lines.push((creating ? c.green : c.yellow)(`${actionMark(resource)} ${resourceLabel(resource)}${drifted}`))
    for (const field of resource.fields) {
      const [head, ...items] = fieldLines(field, { before: c.red, after: c.green })
      lines.push(INDENT + head, ...items.map((item) => INDENT + INDENT + item))
    }
    lines.push('')
  }
  lines.push(c.bold(leadSummary(mode, resources.length, summaryLine(mode, summary))))
  return lines.join('\n') + '\n'
}

/**
 * A line per change (`✓ target ID "name" applied`, `✗ … failed: <error>`), its warnings beneath,
 * the recap of those to look at (applyRecap), then the summary.
 */
export function textReport(resources: readonly ResourceRow[], summary: ApplySummary, interrupted: boolean, color: boolean): string {
  const c = pc.createColors(color)
  const paint = { applied: c.green, failed: c.red, not_applied: c.yellow }
  const lines: string[] = []
  for (const resource of resources) {
    const outcome = outcomeOf(resource)
    const mark = paint[outcome.result](OUTCOME_MARK[outcome.result])
    const [first, ...rest] = messageLines(`${resourceLabel(resource)} ${outcomeText(outcome, interrupted, resource.action)}`)
    lines.push(`${mark} ${first}`, ...rest.map((line) => INDENT + line))
    for (const warning of outcome.warnings) {
      const [head, ...tail] = messageLines(warning)
      lines.push(`${INDENT}warning: ${head}`, ...tail.map((line) => INDENT + INDENT + line))
    }
  }
  if (resources.length > 0) lines.push('')
  const recap = applyRecap(resources, interrupted, { paint })
  if (recap.length > 0) lines.push(...recap, '')
  lines.push(c.bold(leadSummary('apply', resources.length, applySummaryLine(summary))))
  return lines.join('\n') + '\n'
}

/** A message that may span lines, made printable, split into its lines. */
function messageLines(text: string): string[] {
  return printable(text.replace(/\r\n?/g, '\n'), { keepNewlines: true }).split('\n')
}
