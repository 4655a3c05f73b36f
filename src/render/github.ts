import { realpathSync } from 'node:fs'
import { isAbsolute, relative, resolve, sep } from 'node:path'
import type { SourcePosition } from '../core/diagnostics.js'
import type { Mode } from './options.js'
import { outcomeOf, type ResourceRow } from './rows.js'
import { printable } from './value.js'
import {
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

/**
 * GitHub Actions workflow commands, one annotation per changed field at the YAML line that
 * declares it (or at the resource when the field has no position, or unplaced when neither
 * has one), then the summary line as plain text.
 *
 * Levels: a plan's changes are `warning`s (something to review, the job goes on); drift is an
 * `error` (the service no longer matches what was merged, and a drift check fails). In an apply
 * report a failed change is an `error`, a change not applied and each service warning a
 * `warning`, and an applied change a plain line.
 *
 * GitHub shows only the first few annotations of a step (10 of each level) in the pull request;
 * the rest still appear in the log, and the summary line at the end counts them all.
 */
export function githubPlan(resources: readonly ResourceRow[], summary: PlanSummary, mode: Mode, fileOf?: AnnotationFile): string {
  const level = mode === 'drift' ? 'error' : 'warning'
  const verb = mode === 'drift' ? 'drift' : 'plan'
  const lines: string[] = []
  for (const resource of resources) {
    const title = `scansync ${verb}: ${resourceLabel(resource)}`
    for (const field of resource.fields) lines.push(workflowCommand(level, field.source ?? resource.source, title, fieldLines(field).join('\n'), fileOf))
  }
  lines.push(leadSummary(mode, resources.length, summaryLine(mode, summary)))
  return lines.join('\n') + '\n'
}

export function githubReport(resources: readonly ResourceRow[], summary: ApplySummary, interrupted: boolean, fileOf?: AnnotationFile): string {
  const lines: string[] = []
  for (const resource of resources) {
    const outcome = outcomeOf(resource)
    const label = resourceLabel(resource)
    const title = `scansync apply: ${label}`
    const where = resource.source ?? resource.fields.find((field) => field.source)?.source
    const text = outcomeText(outcome, interrupted, resource.action)
    if (outcome.result === 'applied') lines.push(`${OUTCOME_MARK.applied} ${label} ${text}`)
    else lines.push(workflowCommand(outcome.result === 'failed' ? 'error' : 'warning', where, title, text, fileOf))
    for (const warning of outcome.warnings) lines.push(workflowCommand('warning', where, title, warning, fileOf))
  }
  // Plain lines, not annotations: GitHub shows 10 of those per level, and the rest are scattered in the log.
  const recap = applyRecap(resources, interrupted, { fileOf })
  if (recap.length > 0) lines.push('', ...recap, '')
  lines.push(leadSummary('apply', resources.length, applySummaryLine(summary)))
  return lines.join('\n') + '\n'
}

/** The name an annotation gives a file (RenderOptions.annotationFile). */
export type AnnotationFile = (file: string) => string

/**
 * Annotations' file names on a GitHub runner: the runner places `file=` relative to the repository
 * root (GITHUB_WORKSPACE), taking a relative path as it is (actions/runner, IssueCommandExtension),
 * while positions name files relative to the working directory. A run from a sub-folder (a job's
 * `working-directory: config`) would annotate `targets/shop.yaml` for config/targets/shop.yaml, a
 * file GitHub does not find. A file outside the workspace, or no workspace (not on a runner):
 * the name as given. Undefined when nothing is to change.
 */
export function annotationPaths(workspace: string | undefined, cwd: string): AnnotationFile | undefined {
  if (!workspace) return undefined
  const root = resolve(workspace)
  // The working directory is a real path (process.cwd()), the workspace may lead through a
  // symbolic link (a self-hosted runner's work folder on another disk): each is tried.
  const roots = [root, realPath(root)].filter((r, i, all) => all.indexOf(r) === i)
  if (roots.includes(resolve(cwd))) return undefined
  const inside = (r: string, file: string): string | undefined => {
    const path = relative(r, resolve(cwd, file))
    return path === '' || path === '..' || path.startsWith('..' + sep) || isAbsolute(path) ? undefined : path.split(sep).join('/')
  }
  return (file) => roots.map((r) => inside(r, file)).find((path) => path !== undefined) ?? file
}

const realPath = (path: string): string => {
  try {
    return realpathSync.native(path)
  } catch {
    return path
  }
}

/** `::warning file=F,line=L,col=C,title=T::message`, escaped as the runner expects. */
export function workflowCommand(level: 'error' | 'warning' | 'notice', where: SourcePosition | undefined, title: string, message: string, fileOf?: AnnotationFile): string {
  const properties: string[] = []
  if (where) {
    properties.push(`file=${escapeProperty(fileOf ? fileOf(where.file) : where.file, { keepInvisible: true })}`, `line=${where.line}`)
    if (where.column !== undefined) properties.push(`col=${where.column}`)
  }
  properties.push(`title=${escapeProperty(title)}`)
  return `::${level} ${properties.join(',')}::${escapeData(message)}`
}

/** A workflow command's message: `%`, CR and LF encoded (and other control characters made visible). */
export function escapeData(text: string, options: { keepInvisible?: boolean } = {}): string {
  return printable(text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'), options)
}

/** A workflow command's property value: as a message, and `:` and `,` encoded too (a file's name keeps its joiners: `keepInvisible`). */
export function escapeProperty(text: string, options: { keepInvisible?: boolean } = {}): string {
  return escapeData(text, options).replace(/:/g, '%3A').replace(/,/g, '%2C')
}
