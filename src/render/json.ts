import type { PlanDocument } from '../schema/generated.js'
import type { ApplyReport, Plan } from '../plan/model.js'
import { outcomeOf, planRows, reportRows, type FieldRow, type ResourceRow } from './rows.js'
import type { RenderOptions } from './options.js'

type DocumentChange = PlanDocument['changes'][number]
type DocumentField = DocumentChange['fields'][number]
type DocumentValue = DocumentField['before']

/** The contract's JSON object (schemas/plan.schema.json) for a plan. */
export function planDocument(plan: Plan, options: Pick<RenderOptions, 'holds'> = {}): PlanDocument {
  return {
    format_version: 1,
    changes: planRows(plan, undefined, options.holds).map(documentChange),
    summary: { create: plan.summary.create ?? 0, change: plan.summary.change, unchanged: plan.summary.unchanged, ...(plan.missing ? { missing: plan.missing.length } : {}) },
    ...(plan.unmanaged ? { unmanaged: plan.unmanaged.map(({ kind, id, name }) => ({ kind, id, name })) } : {}),
    ...(plan.missing ? { missing: plan.missing.map(({ kind, id, name, source }) => ({ kind, id, name, file: source.file, line: source.line })) } : {}),
  }
}

/**
 * The same object after apply: each change with its result (and error, warnings), the summary with
 * the outcomes: `failed` counts every change that was not applied, `not_applied` those of them never sent.
 */
export function applyDocument(report: ApplyReport, options: Pick<RenderOptions, 'holds'> = {}): PlanDocument {
  const { create = 0, change, unchanged, applied, failed, not_applied } = report.summary
  return {
    format_version: 1,
    changes: reportRows(report, undefined, options.holds).map((resource) => {
      const outcome = outcomeOf(resource)
      const entry = documentChange(resource)
      // The contract names two results: a change never sent failed too, and says it was not sent.
      entry.result = outcome.result === 'applied' ? 'applied' : 'failed'
      if (outcome.result === 'not_applied') entry.sent = false
      if (outcome.error !== undefined) entry.error = outcome.error
      if (outcome.warnings.length > 0) entry.warnings = [...outcome.warnings]
      return entry
    }),
    summary: { create, change, unchanged, applied, failed: failed + not_applied, not_applied },
    ...(report.interrupted ? { interrupted: true } : {}),
  }
}

/** Pretty-printed with two spaces and a trailing newline: the same document gives the same bytes. */
export function jsonText(document: PlanDocument): string {
  return JSON.stringify(document, null, 2) + '\n'
}

function documentChange(resource: ResourceRow): DocumentChange {
  return {
    kind: resource.kind,
    // A resource to create has no id until the service gives it one.
    id: resource.id === '' ? null : resource.id,
    name: resource.name,
    action: resource.action,
    method: resource.method,
    path: resource.requestPath,
    fields: resource.fields.map(documentField) as DocumentChange['fields'],
  }
}

function documentField(field: FieldRow): DocumentField {
  const entry: DocumentField = {
    path: field.path,
    before: field.before as DocumentValue,
    after: field.after as DocumentValue,
    sensitive: field.sensitive,
  }
  if (field.reason !== undefined) entry.reason = field.reason
  return entry
}
