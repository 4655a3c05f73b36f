import { readSchema, type JsonSchema, type SchemaFile } from './files.js'

export const resolveRef = (schema: JsonSchema): JsonSchema => {
  let current = schema
  while (typeof current.$ref === 'string') {
    const [file, pointer] = current.$ref.split('#')
    const document = readSchema((file || 'common.schema.json') as SchemaFile)
    current = pointer.split('/').filter(Boolean).reduce((node: JsonSchema, key) => node[key] as JsonSchema, document)
  }
  return current
}

const cache = new Map<string, string[] | undefined>()

/**
 * The member names a request accepts for the object at `path` (list items for a list), read from
 * the request schema, or undefined when the schema does not describe an object there.
 */
export function requestMembersAt(schemaFile: SchemaFile, path: readonly string[]): string[] | undefined {
  const cacheKey = `${schemaFile}#${path.join('.')}`
  if (cache.has(cacheKey)) return cache.get(cacheKey)
  let node: JsonSchema | undefined = resolveRef(readSchema(schemaFile))
  for (const key of path) {
    const properties = node?.properties as Record<string, JsonSchema> | undefined
    node = properties?.[key] ? resolveRef(properties[key]) : undefined
  }
  if (node?.items) node = resolveRef(node.items as JsonSchema)
  const members = node?.properties ? Object.keys(node.properties as object) : undefined
  cache.set(cacheKey, members)
  return members
}
