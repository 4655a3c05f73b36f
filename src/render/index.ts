import type { ApplyReport, Plan } from '../plan/model.js'
import { githubPlan, githubReport } from './github.js'
import { applyDocument, jsonText, planDocument } from './json.js'
import { markdownPlan, markdownReport } from './markdown.js'
import { GITHUB_COMMENT_LIMIT, type Format, type RenderOptions } from './options.js'
import { planRows, reportRows } from './rows.js'
import { textPlan, textReport } from './text.js'
import { githubUnmanaged, markdownUnmanaged, textUnmanaged } from './unmanaged.js'
import type { Violation } from '../plan/policies.js'
import { violationEntries, withViolations } from './violations.js'

export { applyDocument, planDocument } from './json.js'
export { FORMATS, GITHUB_COMMENT_LIMIT, type Format, type Mode, type RenderOptions } from './options.js'
export { planRows, reportRows, type FieldRow, type ResourceRow } from './rows.js'
export { formatValue } from './value.js'
export { violationEntries, violationLine, violationsMarkdown, violationsGithub, violationsSummary, violationsText } from './violations.js'

/**
 * A plan in one of the four formats. Pure: everything it depends on is in its arguments. With
 * `violations` (the configuration has policies), the documents carry them too (violations.ts).
 */
export function renderPlan(plan: Plan, format: Format, options: RenderOptions = {}, violations?: readonly Violation[]): string {
  if (violations && format === 'json') return jsonText({ ...planDocument(plan), violations: violationEntries(violations) })
  const rendered = renderPlanOnly(plan, format, options)
  return violations ? withViolations(rendered, format, violations) : rendered
}

function renderPlanOnly(plan: Plan, format: Format, options: RenderOptions): string {
  const mode = options.mode ?? 'plan'
  const { redact } = options
  const unmanaged = redact ? (plan.unmanaged ?? []).map((item) => ({ ...item, name: item.name === null ? null : redact(item.name) })) : (plan.unmanaged ?? [])
  switch (format) {
    case 'json':
      return jsonText(planDocument(plan))
    case 'text':
      return textUnmanaged(textPlan(planRows(plan, redact), plan.summary, mode, options.color ?? false), unmanaged)
    case 'markdown':
      return markdownUnmanaged(markdownPlan(planRows(plan, redact), plan.summary, mode, options.markdownLimit ?? GITHUB_COMMENT_LIMIT), unmanaged)
    case 'github':
      return githubUnmanaged(githubPlan(planRows(plan, redact), plan.summary, mode), unmanaged)
  }
}

/**
 * The outcome of an apply in one of the four formats (`options.mode` does not apply). With
 * `violations`, the JSON document and the Markdown comment carry them as a plan's do (text and
 * github show them before the apply: on stderr, and as annotations).
 */
export function renderApplyReport(report: ApplyReport, format: Format, options: RenderOptions = {}, violations?: readonly Violation[]): string {
  const rendered = renderReportOnly(report, format, options)
  return violations && (format === 'json' || format === 'markdown') ? withViolations(rendered, format, violations) : rendered
}

function renderReportOnly(report: ApplyReport, format: Format, options: RenderOptions): string {
  const interrupted = report.interrupted ?? false
  switch (format) {
    case 'json':
      return jsonText(applyDocument(report))
    case 'text':
      return textReport(reportRows(report, options.redact), report.summary, interrupted, options.color ?? false)
    case 'markdown':
      return markdownReport(reportRows(report, options.redact), report.summary, interrupted, options.markdownLimit ?? GITHUB_COMMENT_LIMIT)
    case 'github':
      return githubReport(reportRows(report, options.redact), report.summary, interrupted)
  }
}
