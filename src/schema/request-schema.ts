import { schemaDocuments, type SchemaFile } from './files.js'
import { childOf, placeAt, type SchemaPlace } from './refs.js'

const cache = new Map<string, string[] | undefined>()

/**
 * The member names a request accepts for the object at `path` (list items for a list), read from
 * the request schema, or undefined when the schema does not describe an object there.
 */
export function requestMembersAt(schemaFile: SchemaFile, path: readonly string[]): string[] | undefined {
  const cacheKey = `${schemaFile}#${path.join('.')}`
  if (cache.has(cacheKey)) return cache.get(cacheKey)
  let place: SchemaPlace | undefined = placeAt(schemaDocuments, schemaFile)
  for (const key of path) place = place && childOf(schemaDocuments, place, 'properties', key)
  if (place?.schema.items) place = childOf(schemaDocuments, place, 'items')
  const members = place?.schema.properties ? Object.keys(place.schema.properties as object) : undefined
  cache.set(cacheKey, members)
  return members
}
