import type { PathSegments, SourcePosition } from './diagnostics.js'

/** The kinds of resource, generated from schemas/kinds.json (everything else about them is in src/resources/, the registry). */
export type { KindName, NaturalKeyField } from './kind-name.js'
import type { KindName, NaturalKeyField } from './kind-name.js'

export { SENSITIVE } from './sensitive.js'

export type JsonObject = { [key: string]: unknown }

/** The process environment, or a test's. */
export type Env = Readonly<Record<string, string | undefined>>

/**
 * What identifies a resource declared without `id`: a target's `site.url` (compared as plans
 * compare URLs), an agent's `name`. The value is as written; the field is also in `fields`.
 */
export interface NaturalKey {
  field: NaturalKeyField
  value: string
}

/** A resource as the YAML declares it: variables resolved, shorthands expanded. */
export interface DesiredResource {
  kind: KindName
  /**
   * The id as written, or "" for a target or agent declared without one: then `naturalKey`
   * identifies it, and resolving it against the live lists gives the id (or, for a target, a
   * creation). Only resolved resources (id not "") go on to plans and requests.
   */
  id: string
  /** Set only for a resource declared without `id`. */
  naturalKey?: NaturalKey
  /** The declared fields (the request's shape), without `id`. Only these are managed. */
  fields: JsonObject
  /**
   * Values that came from `${…}` (sensitive), by their dotted place inside `fields` with list
   * indexes (`site.headers[0].value`), mapped to the template text they were written as.
   */
  templates: Map<string, string>
  /** Where the resource starts. */
  source: SourcePosition
  /** Where a value inside `fields` is written. */
  locate(path: PathSegments): SourcePosition
  /**
   * The colour the resources an apply sends declare for each label or owner name (one per name on
   * the service), by family, for a request that re-sends a live list of them
   * (src/resources/account-colours.ts, shareColoursAmong).
   */
  accountColours?: ReadonlyMap<string, ReadonlyMap<string, string>>
  /**
   * The live names by id of the agents and teams the run read: a reference the service answers by
   * its name alone (no id) is the declared id they give that name (src/resources/references.ts).
   */
  referenceNames?: Partial<Record<'agent' | 'team', ReadonlyMap<string, string>>> & { renamed?: ReadonlyMap<string, readonly string[]> }
}

export interface LoadedConfig {
  files: string[]
  resources: DesiredResource[]
}
