import type { DesiredResource, JsonObject, KindName } from '../core/types.js'
import type { SchemaFile } from '../schema/files.js'
import type { ValidatorName } from '../schema/validators.js'
import type { Normalizer } from './normalize.js'

/**
 * How one field is compared. Rules are looked up by the field's path without list keys
 * (`site.headers` for the list, `site.headers.value` for a member of its items).
 */
export type FieldRule =
  /** Compared after normalizing both sides (the default is plain equality). */
  | { type: 'scalar'; normalize?: Normalizer }
  /** An object whose members are compared one by one; `sendWhole`: a change sends the whole object. */
  | { type: 'object'; sendWhole?: boolean }
  /** A list of scalars compared as a set. */
  | { type: 'set'; normalize?: Normalizer }
  /**
   * A list of objects compared as a set keyed by `key`; only the members an item declares are
   * compared. `display: 'whole'` shows the list as one change (labels, teams); `'items'` shows
   * each added, removed or changed item (headers).
   */
  | { type: 'keyed'; key: string; display: 'whole' | 'items' }
  /** An object or null standing for another resource, compared by its `id`. */
  | { type: 'reference' }

export interface PlannedRequest {
  method: 'PATCH' | 'PUT'
  path: string
  body: JsonObject
}

export interface RequestInput {
  desired: DesiredResource
  /** The live resource as `project` returned it. */
  live: JsonObject
  /** The live resource as the service answered it. */
  raw: JsonObject
  /** Places (dotted, without list keys) whose value must be sent: each changed field's send unit. */
  units: string[]
}

/** Everything scansync knows about one kind of resource. The engine knows none of it. */
export interface ResourceKind {
  name: KindName
  /** The list endpoint, e.g. /targets/ */
  listPath: string
  itemPath(id: string): string
  method: 'PATCH' | 'PUT'
  requestSchema: SchemaFile
  /** Checks an answer of GET item or list (read tolerantly: unknown fields are fine). */
  responseValidator: ValidatorName
  rules: Readonly<Record<string, FieldRule>>
  /** Fields sensitive whatever their flags say: the request schema's `x-sensitive` members. */
  sensitiveFields: readonly string[]
  /** The top-level list of a configuration file that holds this kind (`targets`). */
  list: string
  /**
   * Writable fields that are not a person's to maintain: the service fills them in from scans.
   * Declaring them would report drift after every scan; never imported.
   */
  filledByScans: readonly string[]
  /**
   * Fields that mean something only while a switch is on (by rule path). While it is off the
   * service still answers a value, which import leaves out like a default.
   */
  onlyWhile: Readonly<Record<string, (resource: JsonObject) => boolean>>
  /**
   * The place in the YAML of a place in a request body or in a 400's field errors (dotted, list
   * indexes as numbers): where the kind sends a field elsewhere than the YAML writes it.
   */
  yamlPlace(requestPlace: string): string
  /** The live response in the YAML's shape (the comparable form). */
  project(live: JsonObject): JsonObject
  /** A name for people, from the declaration or the live resource. */
  displayName(desired: JsonObject | undefined, live: JsonObject | undefined): string | null
  /**
   * The top-level fields that refer to agents or teams (one reference, or a list of them), by what
   * they name: the service may answer such a reference by its name alone (references.ts).
   */
  references?: Readonly<Record<string, 'agent' | 'team'>>
  /** The request that sends the changed units. */
  buildRequest(input: RequestInput): PlannedRequest
}
