import type { SourcePosition } from '../core/diagnostics.js'
import type { KindName } from '../core/types.js'
import { KIND_ORDER } from '../resources/index.js'

// Lives in core: the redactor, below plan, prints it too.
export { SENSITIVE } from '../core/types.js'

/** Why a sensitive field the service hides (OBFUSCATED_…) is planned. */
export type SecretReason = 'not yet tracked' | 'changed in YAML' | 'changed on the service'

export interface FieldChange {
  /** Dotted path in the YAML's terms: `site.name`, `labels`, `site.headers[X-Api-Key].value`. */
  path: string
  /** The live value in the YAML's shape; undefined when the service has none. Never a secret. */
  before: unknown
  /** The declared value; undefined when the item is to be removed. Never a secret. */
  after: unknown
  /** When true, before and after are SENSITIVE. */
  sensitive: boolean
  reason?: SecretReason
  /** before and after are sets (whitelist, labels, teams…): renders show the items added and removed. */
  set?: boolean
  /** Where the field is declared (for annotations). */
  source?: SourcePosition
}

export interface ResourceChange {
  kind: KindName
  id: string
  /** A name for people (site name, asset name, agent name), when known; SENSITIVE when it came from a variable. */
  name: string | null
  action: 'update'
  method: 'PATCH' | 'PUT'
  /** Request path, e.g. /targets/2DZkoZH8WMEM/ */
  path: string
  fields: FieldChange[]
  /** Where the resource is declared. */
  source?: SourcePosition
}

/** The plan: plain data, sorted by kind (target, asset, agent) then id. Holds no secret value. */
export interface Plan {
  changes: ResourceChange[]
  summary: { change: number; unchanged: number }
}

export type ApplyOutcome = 'applied' | 'failed' | 'not_applied'

/** A change after apply: its outcome, and what the service said. */
export interface ChangeResult extends ResourceChange {
  result: ApplyOutcome
  /** Why it failed or was not applied (already redacted). */
  error?: string
  /** Fields the service answered 200 for but did not take, and similar notes. */
  warnings?: string[]
}

export interface ApplyReport {
  results: ChangeResult[]
  summary: { change: number; unchanged: number; applied: number; failed: number; not_applied: number }
  interrupted?: boolean
}

// The output order is the registry's.
export { KIND_ORDER }

export function compareChanges(a: { kind: KindName; id: string }, b: { kind: KindName; id: string }): number {
  return KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}
