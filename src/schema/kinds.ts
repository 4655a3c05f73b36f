import { readFileSync } from 'node:fs'
import type { KindName, NaturalKeyField } from '../core/types.js'
import { SCHEMAS_DIR, type ResponseSchemaFile, type SchemaFile } from './files.js'

/** A kind as schemas/kinds.json describes it (the data scripts/generate.js derives the configuration schema from). */
export interface KindEntry {
  kind: KindName
  /** The top-level list of a configuration file that holds it (`targets`). */
  list: string
  /** The schema of the fields a YAML file declares. */
  request: SchemaFile
  /** The schema of the service's answers. */
  response: ResponseSchemaFile
  /** The field that identifies it when declared without id; none: it must have an id. */
  naturalKey?: NaturalKeyField
  description: string
}

let entries: readonly KindEntry[] | undefined

/**
 * The kinds in output order, for the floors below the registry (src/resources/index.ts), which
 * must agree with it (test/resources/kinds.test.ts).
 */
export function kindEntries(): readonly KindEntry[] {
  entries ??= (JSON.parse(readFileSync(SCHEMAS_DIR + 'kinds.json', 'utf8')) as { kinds: KindEntry[] }).kinds
  return entries
}
