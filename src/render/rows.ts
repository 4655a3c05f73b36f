import type { SourcePosition } from '../core/diagnostics.js'
import type { KindName } from '../core/types.js'
import {
  compareChanges,
  SENSITIVE,
  type ApplyOutcome,
  type ApplyReport,
  type ChangeResult,
  type FieldChange,
  type Plan,
  type ResourceChange,
  type SecretReason,
} from '../plan/model.js'
import { formatValue, printable, REMOVED } from './value.js'
import { holdsUrlPassword } from '../schema/sensitivity.js'
import { maskedKeys } from '../plan/staleness.js'

/**
 * The neutral rows every renderer formats: the plan walked once, values masked and made
 * printable here, so that no renderer can forget to hide a secret.
 */

/** `change`: both sides have a value; `add`: the service has none; `remove`: the item is to go. */
export type FieldOp = 'change' | 'add' | 'remove'

export interface FieldRow {
  path: string
  op: FieldOp
  /** The live value as plain JSON (`null` for none); SENSITIVE for a sensitive field. */
  before: unknown
  /** The declared value as plain JSON (`null` when removed); SENSITIVE for a sensitive field. */
  after: unknown
  /** `before` on one line: `"Shop"`, `(none)`, `(sensitive)`. */
  beforeText: string
  /** `after` on one line: `"Shop (production)"`, `(removed)`, `(sensitive)`. */
  afterText: string
  sensitive: boolean
  reason?: SecretReason
  /** For a set (whitelist, labels, teams…): the items added and removed, each on one line. */
  items?: { added: string[]; removed: string[] }
  /** Where the field is declared. */
  source?: SourcePosition
}

export interface Outcome {
  result: ApplyOutcome
  /** Why it failed or was not applied (secret values in it are taken out at the output step, core/io.ts). */
  error?: string
  warnings: string[]
}

export interface ResourceRow {
  kind: KindName
  id: string
  name: string | null
  action: 'update' | 'create'
  method: 'PATCH' | 'PUT' | 'POST'
  /** A resource to create: what identifies it (its URL), shown as it has no id yet. */
  naturalKey?: { field: string; value: string }
  /** The request path, e.g. /targets/2DZkoZH8WMEM/ */
  requestPath: string
  /** Where the resource is declared. */
  source?: SourcePosition
  fields: FieldRow[]
  /** Only in an apply report. */
  outcome?: Outcome
}

/** The rows of a plan: one per changed resource, each with one row per changed field. */
export function planRows(plan: Plan, redact?: (text: string) => string, holds?: (text: string) => boolean): ResourceRow[] {
  const rows = rowsOf(plan.changes)
  return redact || holds ? rows.map((row) => redactedRow(row, redact ?? same, holds)) : rows
}

/** The rows of an apply report: as planRows, with each resource's outcome. */
export function reportRows(report: ApplyReport, redact?: (text: string) => string, holds?: (text: string) => boolean): ResourceRow[] {
  const rows = rowsOf(report.results)
  return redact || holds ? rows.map((row) => redactedRow(row, redact ?? same, holds)) : rows
}

const same = (text: string): string => text

/** A field's path redacted, its list keys (sensitive) whole when they hold a secret the redaction leaves (`holds`). */
function shownPath(path: string, redact: (text: string) => string, holds: ((text: string) => boolean) | undefined): string {
  const shown = redact(path)
  const first = shown.indexOf('[')
  const last = shown.lastIndexOf(']')
  // The keys only: a member's name (`form_login`) may hold a weak secret (`in`) by chance.
  return holds !== undefined && first >= 0 && last > first && holds(shown.slice(first + 1, last)) ? maskedKeys(shown, holds) : shown
}

/**
 * A row whose printed texts (names, values, items, errors and warnings) have been through `redact`.
 * A field's path too: a list key the service holds may quote a secret of the run (a header named
 * after a password), and one too short or too common for the output step to replace (`holds`)
 * would be printed; the keys are then (sensitive), as a saved plan writes them (maskedKeys).
 */
function redactedRow(row: ResourceRow, redact: (text: string) => string, holds?: (text: string) => boolean): ResourceRow {
  const out: ResourceRow = {
    ...row,
    name: row.name === null ? null : redact(row.name),
    fields: row.fields.map((field) => ({
      ...field,
      path: shownPath(field.path, redact, holds),
      beforeText: redact(field.beforeText),
      afterText: redact(field.afterText),
      ...(field.items ? { items: { added: field.items.added.map(redact), removed: field.items.removed.map(redact) } } : {}),
    })),
  }
  // A URL holding a weak secret of the run (which `redact` leaves in it) is (sensitive) whole, as its field's line shows it.
  if (row.naturalKey) out.naturalKey = { ...row.naturalKey, value: holdsUrlPassword(row.naturalKey.value) || holds?.(row.naturalKey.value) === true ? SENSITIVE : redact(row.naturalKey.value) }
  if (row.outcome) {
    out.outcome = { ...row.outcome, warnings: row.outcome.warnings.map(redact) }
    if (row.outcome.error !== undefined) out.outcome.error = redact(row.outcome.error)
  }
  return out
}

/** A resource's outcome in an apply report (a row without one was never sent). */
export function outcomeOf(resource: ResourceRow): Outcome {
  return resource.outcome ?? { result: 'not_applied', warnings: [] }
}

function rowsOf(changes: ReadonlyArray<ResourceChange | ChangeResult>): ResourceRow[] {
  return [...changes].sort(compareChanges).map((change) => {
    const row: ResourceRow = {
      kind: change.kind,
      id: change.id,
      name: change.name,
      action: change.action,
      method: change.method,
      requestPath: change.path,
      fields: change.fields.map(fieldRow),
    }
    if (change.source) row.source = change.source
    if (change.naturalKey) row.naturalKey = { ...change.naturalKey }
    if ('result' in change) {
      row.outcome = { result: change.result, warnings: [...(change.warnings ?? [])] }
      if (change.error !== undefined) row.outcome.error = change.error
    }
    return row
  })
}

function fieldRow(field: FieldChange): FieldRow {
  const op: FieldOp = field.after === undefined ? 'remove' : field.before === undefined ? 'add' : 'change'
  const row: FieldRow = field.sensitive
    ? { path: field.path, op, before: SENSITIVE, after: SENSITIVE, beforeText: SENSITIVE, afterText: SENSITIVE, sensitive: true }
    : {
        path: field.path,
        op,
        before: toJson(field.before),
        after: toJson(field.after),
        // Names shown for ids come from the service as they are: made printable as formatValue makes every other value.
        beforeText: field.display?.before !== undefined ? printable(field.display.before) : formatValue(field.before),
        afterText: op === 'remove' ? REMOVED : field.display?.after !== undefined ? printable(field.display.after) : formatValue(field.after),
        sensitive: false,
      }
  if (field.reason !== undefined) row.reason = field.reason
  // Names shown for ids (`[Platform] -> [Platform, Security]`) read best whole.
  if (field.set && !field.sensitive && !field.display) {
    const items = setItems(field.before, field.after)
    // Lists that differ only in what neither side shows print whole.
    if (items.added.length + items.removed.length > 0) row.items = items
  }
  if (field.source) row.source = field.source
  return row
}

/** The items of `after` that `before` lacks, and the other way round (each copy counts), as printed. */
export function setItems(before: unknown, after: unknown): { added: string[]; removed: string[] } {
  const texts = (value: unknown) => (Array.isArray(value) ? value : []).map((item) => (item === SENSITIVE ? SENSITIVE : formatValue(item)))
  const minus = (from: string[], other: string[]) => {
    const left = new Map<string, number>()
    for (const text of other) left.set(text, (left.get(text) ?? 0) + 1)
    return from.filter((text) => {
      const count = left.get(text) ?? 0
      if (count > 0) left.set(text, count - 1)
      return count === 0
    })
  }
  const was = texts(before)
  const will = texts(after)
  return { added: minus(will, was), removed: minus(was, will) }
}

/**
 * A deep copy as plain JSON: undefined becomes null (and is dropped inside objects), so the
 * document built from it is exactly what JSON.parse would give back.
 */
export function toJson(value: unknown, seen: Set<object> = new Set()): unknown {
  if (value === undefined || value === null) return null
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value
    case 'number':
      return Number.isFinite(value) ? value : null
    case 'bigint':
      return value.toString()
    case 'object':
      break
    default:
      return null
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString()
  if (seen.has(value)) return null
  seen.add(value)
  let copy: unknown
  if (Array.isArray(value)) copy = value.map((item: unknown) => toJson(item, seen))
  else {
    const object: Record<string, unknown> = {}
    for (const [key, member] of Object.entries(value)) {
      if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue
      // defineProperty, not assignment: a "__proto__" key stays an own member.
      Object.defineProperty(object, key, { value: toJson(member, seen), enumerable: true, writable: true, configurable: true })
    }
    copy = object
  }
  seen.delete(value)
  return copy
}
