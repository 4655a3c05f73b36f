import type { PathSegments, SourcePosition } from './diagnostics.js'

/** The kinds of resource (everything else about them is in src/resources/, the registry). */
export type KindName = 'target' | 'asset' | 'agent'

/** What every output shows in place of a sensitive value. */
export const SENSITIVE = '(sensitive)'

export type JsonObject = { [key: string]: unknown }

/** The process environment, or a test's. */
export type Env = Readonly<Record<string, string | undefined>>

/** A resource as the YAML declares it: variables resolved, shorthands expanded. */
export interface DesiredResource {
  kind: KindName
  id: string
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
}

export interface LoadedConfig {
  files: string[]
  resources: DesiredResource[]
}
