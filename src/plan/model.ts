import type { SourcePosition } from '../core/diagnostics.js'
import type { KindName, NaturalKey } from '../core/types.js'
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
  /** How people read the values where they hold ids of other things (`[Platform, Security]`); shown instead of the ids. */
  display?: { before?: string; after?: string }
}

export interface ResourceChange {
  kind: KindName
  /** "" for a resource to create (the JSON plan says null); after apply, the id the service gave it. */
  id: string
  /** A name for people (site name, asset name, agent name), when known; SENSITIVE when it came from a variable. */
  name: string | null
  /** `create`: no live resource has its natural key; `POST` to the kind's list path with every declared field. */
  action: 'update' | 'create'
  method: 'PATCH' | 'PUT' | 'POST'
  /** Request path, e.g. /targets/2DZkoZH8WMEM/ (or /targets/ for a creation) */
  path: string
  /** What identifies a resource to create (its id is not known before the service gives it one). */
  naturalKey?: NaturalKey
  fields: FieldChange[]
  /** Where the resource is declared. */
  source?: SourcePosition
}

/** The plan: plain data, sorted by kind (target, asset, agent) then id. Holds no secret value. */
export interface Plan {
  changes: ResourceChange[]
  /** `change` counts updates only; `create` the resources to create (absent: none). */
  summary: { create?: number; change: number; unchanged: number; missing?: number }
  /** `drift --unmanaged`: live targets and agents that no file declares (absent: not asked for). */
  unmanaged?: Unmanaged[]
  /** `drift`: resources declared by id that the service no longer has (absent: none, or not drift). */
  missing?: Missing[]
}

/** A resource declared by id that the service answers 404 for: deleted by hand. */
export interface Missing {
  kind: KindName
  id: string
  /** The name the YAML gives it; SENSITIVE when it came from a variable. */
  name: string | null
  source: SourcePosition
}

/** A live resource no file declares, by id or natural key. */
export interface Unmanaged {
  kind: 'target' | 'agent'
  id: string
  /** Its site name or agent name, when it has one. */
  name: string | null
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
  summary: { create?: number; change: number; unchanged: number; applied: number; failed: number; not_applied: number }
  interrupted?: boolean
}

// The output order is the registry's.
export { KIND_ORDER }

export function compareChanges(a: { kind: KindName; id: string }, b: { kind: KindName; id: string }): number {
  return KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}
