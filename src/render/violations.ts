import { fileAtLineStart } from '../core/diagnostics.js'
import type { Violation } from '../plan/policies.js'
import type { ViolationEntry } from '../schema/generated.js'
import { workflowCommand, type AnnotationFile } from './github.js'
import { clip, escapeText, rowsWithin } from './markdown.js'
import type { Format } from './options.js'
import { printable } from './value.js'
import { plural } from './words.js'

/** What the JSON documents hold under `violations` (schemas/plan.schema.json; audit.schema.json refers to it). */
export type { ViolationEntry }

export function violationEntries(violations: readonly Violation[]): ViolationEntry[] {
  return violations.map((v) => ({ policy: v.policy, level: v.level, kind: v.kind, id: v.id, message: v.message, file: v.where?.file ?? null, line: v.where?.line ?? null }))
}

/**
 * `KIND ID: MESSAGE`, the part after `policy NAME: `. A live resource no file declares (audit)
 * says so at the end of MESSAGE, never between ID and its colon, so that the contract's shape
 * holds for every line.
 */
const resourceAndMessage = (v: Violation): string => `${v.kind} ${v.id}: ${v.message}${v.where ? '' : ' (declared in no file)'}`

/**
 * `FILE:LINE:COLUMN: policy NAME: KIND ID: MESSAGE` (contract, "Policies"). A live resource no
 * file declares (audit) is placed at the rule, and says so; a warning says it is one.
 */
export function violationLine(v: Violation): string {
  const at = v.where ?? v.rule
  const level = v.level === 'warning' ? ' [warning]' : ''
  // The file's name as it is found (a Persian name's zero-width non-joiner kept), as an error line writes it.
  return `${fileAtLineStart(printable(at.file, { keepInvisible: true }))}:${at.line}:${at.column}: ${printable(`policy ${v.policy}: ${resourceAndMessage(v)}${level}`)}`
}

/** `2 policy violations: 1 error, 1 warning.` */
export function violationsSummary(violations: readonly Violation[]): string {
  const errors = violations.filter((v) => v.level === 'error').length
  return `${plural(violations.length, 'policy violation', 'policy violations')}: ${plural(errors, 'error', 'errors')}, ${plural(violations.length - errors, 'warning', 'warnings')}.`
}

/** One annotation per violation, at the resource's line (or the rule's, for a resource no file declares). */
export function violationsGithub(violations: readonly Violation[], fileOf?: AnnotationFile): string {
  return violations
    .map((v) => workflowCommand(v.level, v.where ?? v.rule, `scansync policy ${v.policy}`, resourceAndMessage(v), fileOf))
    .map((line) => line + '\n')
    .join('')
}

const MAX_ROWS = 100
const MAX_MESSAGE = 500

/**
 * The PR comment's section: a table of the violations (the first hundred, and no more than fit in
 * `budget` characters; the rest counted). `redact`: the run's (RenderOptions), applied to a
 * message before it is shortened, so that the cut never leaves half a secret.
 */
export function violationsMarkdown(violations: readonly Violation[], budget = Infinity, redact: (text: string) => string = (text) => text): string {
  const lines = [`### Policy violations`, '', `**${escapeText(violationsSummary(violations))}**`, '']
  if (violations.length === 0) return lines.slice(0, 3).join('\n') + '\n'
  const more = (left: number) => `… and ${left} more (see the job's log).`
  // Errors first: they are what fails the check, and the rows that fit may be few.
  const ordered = [...violations.filter((v) => v.level === 'error'), ...violations.filter((v) => v.level !== 'error')]
  const { lines: table, shown } = rowsWithin(
    [...lines, '| | Policy | Resource | Where | Message |', '|---|---|---|---|---|'],
    ordered.slice(0, MAX_ROWS),
    (v) => {
      // The file's name as it is found (a Persian name's zero-width non-joiner kept), as the violation's line writes it.
      const where = v.where ? `${v.where.file}:${v.where.line}` : 'declared in no file'
      return `| ${v.level === 'error' ? '✗ error' : '⚠ warning'} | <code>${escapeText(redact(v.policy))}</code> | ${escapeText(v.kind)} <code>${escapeText(v.id)}</code> | ${escapeText(where, { keepInvisible: true })} | ${escapeText(clip(redact(v.message), MAX_MESSAGE))} |`
    },
    budget,
    more,
    violations.length,
  )
  if (shown === 0) table.splice(-2)
  if (violations.length > shown) table.push('', more(violations.length - shown))
  return table.join('\n') + '\n'
}

/** A rule of an audit, with the live resources of its kind checked against it and how many break it (audit.schema.json, `policies`). */
export interface RuleTally {
  name: string
  kind: string
  level: string
  description: string
  checked: number
  violations: number
}

/**
 * The audit's Markdown table of its rules, in the order of the files: each with the resources
 * checked against it and how many break it, so that a rule broken by nobody, and the warnings of a
 * table cut at its first rows, are accounted for. No more than `budget` characters (the rest counted).
 */
export function rulesMarkdown(rules: readonly RuleTally[], budget = Infinity, redact: (text: string) => string = (text) => text): string {
  const more = (left: number) => `… and ${plural(left, 'more rule', 'more rules')} (see --format json).`
  const { lines, shown } = rowsWithin(
    ['| Rule | Level | Kind | Checked | Broken by | Description |', '|---|---|---|---|---|---|'],
    rules,
    (rule) => `| <code>${escapeText(redact(rule.name))}</code> | ${rule.level} | ${rule.kind} | ${rule.checked} | ${rule.violations} | ${escapeText(clip(redact(rule.description), MAX_MESSAGE))} |`,
    budget,
    more,
  )
  if (rules.length > shown) lines.push('', more(rules.length - shown))
  return lines.join('\n') + '\n'
}

/** Text format: the violations go to stderr, one contract line each, then a summary (empty when none). */
export function violationsText(violations: readonly Violation[]): string {
  if (violations.length === 0) return ''
  return violations.map((v) => violationLine(v) + '\n').join('') + violationsSummary(violations) + '\n'
}

/**
 * The violations inside a rendered document: `violations` in JSON, annotations and the line that
 * counts them before the plan in github. Text is unchanged (they go to stderr); Markdown places its own section.
 */
export function withViolations(rendered: string, format: Format, violations: readonly Violation[], fileOf?: AnnotationFile): string {
  switch (format) {
    case 'json': {
      const document = JSON.parse(rendered) as Record<string, unknown>
      return JSON.stringify({ ...document, violations: violationEntries(violations) }, null, 2) + '\n'
    }
    case 'markdown':
      // The comment's renderers place the section themselves, redacted and within the comment's limit.
      throw new Error('withViolations: the Markdown renderers place their violations section themselves')
    case 'github':
      // GitHub shows ten annotations a level: the log's line counts them all.
      return violations.length === 0 ? rendered : violationsGithub(violations, fileOf) + violationsSummary(violations) + '\n' + rendered
    case 'text':
      return rendered
  }
}
