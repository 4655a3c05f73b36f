import type { ApplyReport, Plan } from '../plan/model.js'
import { githubPlan, githubReport } from './github.js'
import { applyDocument, jsonText, planDocument } from './json.js'
import { markdownPlan, markdownReport } from './markdown.js'
import { GITHUB_COMMENT_LIMIT, type Format, type RenderOptions } from './options.js'
import { planRows, reportRows } from './rows.js'
import { textPlan, textReport } from './text.js'
import { githubList, markdownList, markdownListSection, MISSING, textList, UNMANAGED } from './resource-lists.js'
import type { Violation } from '../plan/policies.js'
import { violationEntries, violationsMarkdown, withViolations } from './violations.js'

export { applyDocument, planDocument } from './json.js'
export { annotationPaths } from './github.js'
export { FORMATS, GITHUB_COMMENT_LIMIT, type Format, type Mode, type RenderOptions } from './options.js'
export { planRows, reportRows, type FieldRow, type ResourceRow } from './rows.js'
export { formatValue } from './value.js'
export { rulesMarkdown, violationEntries, violationLine, violationsMarkdown, violationsGithub, violationsSummary, violationsText } from './violations.js'

/**
 * A plan in one of the four formats. Pure: everything it depends on is in its arguments. With
 * `violations` (the configuration has policies), the documents carry them too (violations.ts).
 */
export function renderPlan(plan: Plan, format: Format, options: RenderOptions = {}, violations?: readonly Violation[]): string {
  if (violations && format === 'json') return jsonText({ ...planDocument(plan, options), violations: violationEntries(violations) })
  if (format === 'markdown') return markdownPlanComment(plan, options, violations)
  const rendered = renderPlanOnly(plan, format, options)
  return violations ? withViolations(rendered, format, violations, options.annotationFile) : rendered
}

/** What the summary line grows by when it counts the resources of a list (resource-lists.ts), at most. */
const SUMMARY_GROWTH = 64

/**
 * The pull-request comment: the plan, then the resources declared but gone from the service, those
 * no file declares and the policy violations, each of those at most a quarter of the limit, and
 * the plan fitted into the rest.
 */
function markdownPlanComment(plan: Plan, options: RenderOptions, violations: readonly Violation[] | undefined): string {
  const limit = options.markdownLimit ?? GITHUB_COMMENT_LIMIT
  const { missing, unmanaged } = shownLists(plan, options)
  const missingSection = markdownListSection(MISSING, missing, Math.floor(limit / 4))
  const unmanagedSection = markdownListSection(UNMANAGED, unmanaged, Math.floor(limit / 4))
  const violationsSection = violations ? violationsMarkdown(violations, Math.floor(limit / 4), options.redact) : ''
  const listed = (section: string) => (section === '' ? 0 : section.length + 2 + SUMMARY_GROWTH)
  const reserved = listed(missingSection) + listed(unmanagedSection) + (violations ? violationsSection.length + 1 : 0)
  const planned = markdownPlan(planRows(plan, options.redact, options.holds), plan.summary, options.mode ?? 'plan', limit, reserved)
  const rendered = markdownList(markdownList(planned, MISSING, missing, missingSection), UNMANAGED, unmanaged, unmanagedSection)
  return violations ? rendered + '\n' + violationsSection : rendered
}

/** The lists' resources with their names through `redact`, for the formats that print them as text. */
function shownLists(plan: Plan, { redact }: RenderOptions) {
  const named = <T extends { name: string | null }>(items: readonly T[] = []): T[] => (redact ? items.map((item) => ({ ...item, name: item.name === null ? null : redact(item.name) })) : [...items])
  return { missing: named(plan.missing), unmanaged: named(plan.unmanaged) }
}

function renderPlanOnly(plan: Plan, format: Format, options: RenderOptions): string {
  const mode = options.mode ?? 'plan'
  const { redact } = options
  const { missing, unmanaged } = shownLists(plan, options)
  switch (format) {
    case 'json':
      return jsonText(planDocument(plan, options))
    case 'text':
      return textList(textList(textPlan(planRows(plan, redact, options.holds), plan.summary, mode, options.color ?? false), MISSING, missing), UNMANAGED, unmanaged)
    case 'markdown':
      return markdownPlanComment(plan, options, undefined)
    case 'github':
      return githubList(githubList(githubPlan(planRows(plan, redact, options.holds), plan.summary, mode, options.annotationFile), MISSING, missing, options.annotationFile), UNMANAGED, unmanaged, options.annotationFile)
  }
}

/**
 * The outcome of an apply in one of the four formats (`options.mode` does not apply). With
 * `violations`, the JSON document and the Markdown comment carry them as a plan's do (text and
 * github show them before the apply: on stderr, and as annotations).
 */
export function renderApplyReport(report: ApplyReport, format: Format, options: RenderOptions = {}, violations?: readonly Violation[]): string {
  if (format === 'markdown' && violations) {
    const limit = options.markdownLimit ?? GITHUB_COMMENT_LIMIT
    const section = violationsMarkdown(violations, Math.floor(limit / 4), options.redact)
    return markdownReport(reportRows(report, options.redact, options.holds), report.summary, report.interrupted ?? false, limit, section.length + 1) + '\n' + section
  }
  const rendered = renderReportOnly(report, format, options)
  return violations && format === 'json' ? withViolations(rendered, format, violations) : rendered
}

function renderReportOnly(report: ApplyReport, format: Format, options: RenderOptions): string {
  const interrupted = report.interrupted ?? false
  switch (format) {
    case 'json':
      return jsonText(applyDocument(report, options))
    case 'text':
      return textReport(reportRows(report, options.redact, options.holds), report.summary, interrupted, options.color ?? false)
    case 'markdown':
      return markdownReport(reportRows(report, options.redact, options.holds), report.summary, interrupted, options.markdownLimit ?? GITHUB_COMMENT_LIMIT)
    case 'github':
      return githubReport(reportRows(report, options.redact, options.holds), report.summary, interrupted, options.annotationFile)
  }
}
