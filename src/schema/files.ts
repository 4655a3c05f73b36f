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
    schema = JSON.parse(readFileSync(SCHEMAS_DIR + name, 'utf8')) as JsonSchema
    cache.set(name, schema)
  }
  return schema
}

/** The schemas by file name, for the $ref walker (refs.ts). */
export const schemaDocuments: Documents = (file) => readSchema(file as SchemaFile)

/** Keywords of ours inside the schemas (annotations Ajv must accept). */
export const SCHEMA_ANNOTATIONS = ['x-error', 'x-sensitive', 'x-config-shorthand', 'x-shorthand-for', 'tsType'] as const
