import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { SCHEMA_FILES } from './generated.js'

/** The schemas/ folder of the package, the single source of truth for every shape. */
export const SCHEMAS_DIR = fileURLToPath(new URL('../../schemas/', import.meta.url))

/** Every file of schemas/ (listed by `npm run gen`, so a schema file's name is checked by the compiler). */
export { SCHEMA_FILES }

export type SchemaFile = (typeof SCHEMA_FILES)[number]

/** The schema of the answers to GET item or list of a kind (src/schema/validators.ts compiles each). */
export type ResponseSchemaFile = Extract<SchemaFile, `${string}.response.schema.json`>

export const RESPONSE_SCHEMA_FILES = SCHEMA_FILES.filter((file): file is ResponseSchemaFile => file.endsWith('.response.schema.json'))

export type { JsonSchema } from './refs.js'
import type { Documents, JsonSchema } from './refs.js'

const cache = new Map<string, JsonSchema>()

export function readSchema(name: SchemaFile): JsonSchema {
  let schema = cache.get(name)
  if (!schema) {
    schema = withoutEditorOnlyParts(JSON.parse(readFileSync(SCHEMAS_DIR + name, 'utf8'))) as JsonSchema
    cache.set(name, schema)
  }
  return schema
}

/**
 * The configuration schema holds parts for editors alone, marked `x-editor-only` (scripts/generate.js
 * adds them), which scansync reads the schema without: beside each string it limits, an alternative
 * for a string written with a `${NAME}` (scansync checks the files once the variables are replaced,
 * so that the value a variable gives is held to the limits, and said wrong in the limit's words);
 * and checks scansync makes in its own words (a resource's id or natural key).
 */
function withoutEditorOnlyParts(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutEditorOnlyParts)
  if (node === null || typeof node !== 'object') return node
  const marked = (option: unknown, mark: string) => option !== null && typeof option === 'object' && (option as Record<string, unknown>)[mark] === true
  const { anyOf, allOf, ...rest } = node as Record<string, unknown>
  const kept = Array.isArray(anyOf) ? anyOf.filter((option) => !marked(option, 'x-editor-only')) : undefined
  let read = kept?.length === 1 && kept.length !== (anyOf as unknown[]).length ? { ...rest, ...(allOf === undefined ? {} : { allOf }), ...(kept[0] as object) } : (node as Record<string, unknown>)
  if (Array.isArray(allOf) && allOf.some((entry) => marked(entry, 'x-editor-only'))) {
    const { allOf: _, ...others } = read
    const left = allOf.filter((entry) => !marked(entry, 'x-editor-only'))
    read = left.length > 0 ? { ...others, allOf: left } : others
  }
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(read)) {
    out[key] = key === 'enum' || key === 'default' || key === 'const' ? value : withoutEditorOnlyParts(value)
  }
  return out
}

/** The schemas by file name, for the $ref walker (refs.ts). */
export const schemaDocuments: Documents = (file) => readSchema(file as SchemaFile)

/** Keywords of ours inside the schemas (annotations Ajv must accept). */
export const SCHEMA_ANNOTATIONS = ['x-error', 'x-sensitive', 'x-config-shorthand', 'x-shorthand-for', 'x-editor-only', 'tsType'] as const
