import { outcomeOf, type FieldRow, type Outcome, type ResourceRow } from './rows.js'
import type { Mode } from './options.js'
import { formatValue, printable } from './value.js'
import { SENSITIVE } from '../plan/model.js'
import { fileAtLineStart } from '../core/diagnostics.js'

/** Wording shared by the formats, so that text, markdown and github say the same things. */

export interface PlanSummary {
  /** Resources to create (absent: none). */
  create?: number
  change: number
  unchanged: number
}

export interface ApplySummary extends PlanSummary {
  applied: number
  failed: number
  not_applied: number
}

const identity = (text: string) => text

export function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`
}

export { groupThousands } from '../core/thousands.js'

/**
 * `target 2DZkoZH8WMEM "Shop (production)"`, or by its id alone when it has no name or a sensitive
 * one; a resource to create, which has no id yet: `target "Shop (new)" (https://new.example.com/)`.
 */
export function resourceLabel(resource: Pick<ResourceRow, 'kind' | 'id' | 'name'> & { naturalKey?: { value: string } }): string {
  if (resource.id === '' && resource.naturalKey) {
    const name = resource.name === null || resource.name === SENSITIVE ? '' : ` ${formatValue(resource.name)}`
    return `${resource.kind}${name} (${printable(resource.naturalKey.value)})`
  }
  const label = `${resource.kind} ${printable(resource.id)}`
  return resource.name === null || resource.name === SENSITIVE ? label : `${label} ${formatValue(resource.name)}`
}

/**
 * A field's lines: `site.name: "Old" -> "New"`; a set as its items added and removed, under
 * its path (`site.whitelist:`, `+ "https://x/admin/*"`, `- "https://x/old/*"`).
 */
export function fieldLines(field: FieldRow, paint: { before?: (t: string) => string; after?: (t: string) => string } = {}): string[] {
  if (!field.items) return [fieldLine(field, paint)]
  const added = field.items.added.map((item) => (paint.after ?? identity)(`+ ${item}`))
  const removed = field.items.removed.map((item) => (paint.before ?? identity)(`- ${item}`))
  return [`${printable(field.path)}:`, ...added, ...removed]
}

/** `site.name: "Old" -> "New"`, `site.basic_auth.password: (sensitive) -> (sensitive) (changed in YAML)` */
export function fieldLine(field: FieldRow, paint: { before?: (t: string) => string; after?: (t: string) => string } = {}): string {
  const before = (paint.before ?? identity)(field.beforeText)
  const after = (paint.after ?? identity)(field.afterText)
  const reason = field.reason === undefined ? '' : ` (${field.reason})`
  return `${printable(field.path)}: ${before} -> ${after}${reason}`
}

/** The line scripts grep: `Plan: 3 to change, 41 unchanged.` or `Drift: 3 resources differ from the configuration, 41 in sync.` */
export function summaryLine(mode: Mode, summary: PlanSummary): string {
  const create = summary.create ?? 0
  if (mode === 'drift') {
    const differ = summary.change === 1 ? 'resource differs' : 'resources differ'
    // Not "missing": that is a resource declared by id and gone (resource-lists.ts); this one was never created.
    const absent = create > 0 ? `${plural(create, 'declared resource is', 'declared resources are')} not on the service yet (apply creates ${create === 1 ? 'it' : 'them'}), ` : ''
    return `Drift: ${absent}${summary.change} ${differ} from the configuration, ${summary.unchanged} in sync.`
  }
  return `Plan: ${create > 0 ? `${create} to create, ` : ''}${summary.change} to change, ${summary.unchanged} unchanged.`
}

/** `+` for a resource to create, `~` for one to change. */
export const actionMark = (resource: Pick<ResourceRow, 'action'>): string => (resource.action === 'create' ? '+' : '~')

/**
 * The summary line, led by `No changes.` (`No drift.`) when nothing differs: one line either way,
 * and the greppable part (`Plan: 0 to change, 41 unchanged.`) is kept whole.
 */
export function leadSummary(mode: Mode, changed: number, line: string): string {
  if (changed > 0) return line
  return `${mode === 'drift' ? 'No drift.' : 'No changes.'} ${line}`
}

/** `Apply: 3 applied, 1 failed, 0 not applied, 41 unchanged.` */
export function applySummaryLine(summary: ApplySummary): string {
  return `Apply: ${summary.applied} applied, ${summary.failed} failed, ${summary.not_applied} not applied, ${summary.unchanged} unchanged.`
}

/** `applied`, `failed: <error>`, `not applied (interrupted)` */
export function outcomeText(outcome: Outcome, interrupted: boolean, action: ResourceRow['action'] = 'update'): string {
  switch (outcome.result) {
    case 'applied':
      return action === 'create' ? 'created' : 'applied'
    case 'failed':
      return outcome.error === undefined ? 'failed' : `failed: ${outcome.error}`
    case 'not_applied':
      if (outcome.error !== undefined) return `not applied: ${outcome.error}`
      return interrupted ? 'not applied (interrupted)' : 'not applied'
  }
}

/** ✓ applied, ✗ failed, - not applied */
export const OUTCOME_MARK = { applied: '✓', failed: '✗', not_applied: '-' } as const

/** How many changes the recap of an apply report names before "… and N more". */
export const RECAP_LIMIT = 20

/**
 * The recap that ends an apply report before its summary line (text and github): the changes that
 * failed, were not applied, or were applied with a warning, each once, with where it is declared and
 * why (its first line), failures first. An apply of 3,000 changes with 17 failures printed the 17
 * among 3,000 `✓` lines and only a count at the end. None when every change was applied cleanly,
 * or when the report holds a single change (its line is right above).
 */
export function applyRecap(
  resources: readonly ResourceRow[],
  interrupted: boolean,
  options: { paint?: Partial<Record<Outcome['result'], (text: string) => string>>; fileOf?: (file: string) => string } = {},
): string[] {
  if (resources.length < 2) return []
  const rank = (outcome: Outcome) => (outcome.result === 'failed' ? 0 : outcome.result === 'not_applied' ? 1 : outcome.warnings.length > 0 ? 2 : -1)
  const listed = resources.filter((resource) => rank(outcomeOf(resource)) >= 0).sort((a, b) => rank(outcomeOf(a)) - rank(outcomeOf(b)))
  if (listed.length === 0) return []
  const lines = [`Needs attention (${listed.length} of ${resources.length} changes):`]
  for (const resource of listed.slice(0, RECAP_LIMIT)) {
    const outcome = outcomeOf(resource)
    const where = resource.source ?? resource.fields.find((field) => field.source)?.source
    const file = where ? fileAtLineStart(printable((options.fileOf ?? identity)(where.file), { keepInvisible: true })) : undefined
    const at = where ? `${file}:${where.line}:${where.column}: ` : ''
    const warnings = outcome.warnings.length
    const text =
      outcome.result === 'applied'
        ? `${outcomeText(outcome, interrupted, resource.action)}, with ${warnings === 1 ? 'a warning' : `${warnings} warnings`}: ${outcome.warnings[0]}`
        : outcomeText(outcome, interrupted, resource.action)
    const mark = (options.paint?.[outcome.result] ?? identity)(OUTCOME_MARK[outcome.result])
    lines.push(`  ${mark} ${at}${firstLine(`${resourceLabel(resource)} ${text}`)}`)
  }
  if (listed.length > RECAP_LIMIT) lines.push(`  … and ${listed.length - RECAP_LIMIT} more, each listed above`)
  return lines
}

/** A message's first line, made printable, with `…` when more lines follow (they are in the report above). */
function firstLine(text: string): string {
  const [first, ...rest] = printable(text.replace(/\r\n?/g, '\n'), { keepNewlines: true }).split('\n')
  return rest.length > 0 ? `${first} …` : first
}
