import type { KindName } from '../core/types.js'
import { readSchema, type JsonSchema } from './files.js'

export interface ConfigList {
  /** The top-level key of a configuration file (`targets`). */
  list: string
  kind: KindName
}

let lists: readonly ConfigList[] | undefined

/**
 * The top-level lists of a configuration file and the kind each holds, in the schema's order,
 * read from config.schema.json (generated from the kinds: scripts/generate.js). The loader sits
 * below the registry of kinds and learns them here.
 */
export function configLists(): readonly ConfigList[] {
  lists ??= Object.entries(readSchema('config.schema.json').properties as Record<string, JsonSchema>).flatMap(([list, schema]) => {
    // `policies` holds rules, written inline: only lists of a kind refer to its definition.
    const ref = (schema.items as JsonSchema | undefined)?.$ref
    if (ref === undefined) return []
    const kind = typeof ref === 'string' ? /^#\/definitions\/(\w+)$/.exec(ref)?.[1] : undefined
    if (!kind) throw new Error(`config.schema.json: the list ${list} does not name the kind it holds`)
    return [{ list, kind: kind as KindName }]
  })
  return lists
}
