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
  // In place: the tree is JSON.parse's own, read once per file, and a copy of every node cost a
  // plan 3–4 ms of its start.
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) node[i] = withoutEditorOnlyParts(node[i])
    return node
  }
  if (node === null || typeof node !== 'object') return node
  const schema = node as Record<string, unknown>
  for (const key in schema) if (key !== 'enum' && key !== 'default' && key !== 'const') schema[key] = withoutEditorOnlyParts(schema[key])
  const { anyOf, allOf } = schema
  if (Array.isArray(allOf) && allOf.some(editorOnly)) {
    const left = allOf.filter((entry) => !editorOnly(entry))
    if (left.length > 0) schema.allOf = left
    else delete schema.allOf
  }
  if (!Array.isArray(anyOf) || !anyOf.some(editorOnly)) return schema
  const kept = anyOf.filter((option) => !editorOnly(option))
  if (kept.length !== 1) {
    schema.anyOf = kept
    return schema
  }
  // The one alternative left stands for the whole (its members beside the schema's own).
  delete schema.anyOf
  return Object.assign(schema, kept[0])
}

const editorOnly = (part: unknown): boolean => part !== null && typeof part === 'object' && (part as Record<string, unknown>)['x-editor-only'] === true

/**
 * The member a bare string stands for where the configuration allows a shorthand at this place (a
 * label's name, a team's or an agent's id): its `x-config-shorthand` definition's `x-shorthand-for`.
 */
export function shorthandMember(schema: JsonSchema): string | undefined {
  const shorthand = schema['x-config-shorthand']
  if (typeof shorthand !== 'string') return undefined
  const definitions = readSchema('common.schema.json').definitions as Record<string, JsonSchema>
  const member = definitions[shorthand]?.['x-shorthand-for']
  return typeof member === 'string' ? member : undefined
}

/** The schemas by file name, for the $ref walker (refs.ts). */
export const schemaDocuments: Documents = (file) => readSchema(file as SchemaFile)

/** Keywords of ours inside the schemas (annotations Ajv must accept). */
export const SCHEMA_ANNOTATIONS = ['x-error', 'x-sensitive', 'x-config-shorthand', 'x-shorthand-for', 'x-editor-only', 'tsType'] as const
