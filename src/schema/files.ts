import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** The schemas/ folder of the package, the single source of truth for every shape. */
export const SCHEMAS_DIR = fileURLToPath(new URL('../../schemas/', import.meta.url))

export const SCHEMA_FILES = [
  'common.schema.json',
  'config.schema.json',
  'target-patch.request.schema.json',
  'asset-put.request.schema.json',
  'agent-patch.request.schema.json',
  'target-create.request.schema.json',
  'target.response.schema.json',
  'asset.response.schema.json',
  'agent.response.schema.json',
  'list-page.response.schema.json',
  'team.response.schema.json',
  'team-list-page.response.schema.json',
  'plan.schema.json',
  'saved-plan.schema.json',
  'state.schema.json',
] as const

export type SchemaFile = (typeof SCHEMA_FILES)[number]

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
