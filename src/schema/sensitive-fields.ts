import { SCHEMA_FILES, schemaDocuments, type SchemaFile } from './files.js'
import { childOf, placeAt, type SchemaPlace } from './refs.js'

const REQUEST_SCHEMAS = SCHEMA_FILES.filter((file) => file.endsWith('.request.schema.json'))

const cache = new Map<SchemaFile, readonly string[]>()

/**
 * The members a request schema marks `x-sensitive` (sensitive whatever their flags say), as
 * dotted paths without list indexes (`site.otp_secret`): the schemas are the one list of them.
 */
export function sensitiveFields(file: SchemaFile): readonly string[] {
  let fields = cache.get(file)
  if (!fields) {
    fields = collect(placeAt(schemaDocuments, file), '', new Set())
    cache.set(file, fields)
  }
  return fields
}

/** The same for every request schema together (for places that know the path but not the kind). */
export function allSensitiveFields(): readonly string[] {
  return (all ??= [...new Set(REQUEST_SCHEMAS.flatMap((file) => sensitiveFields(file)))])
}
let all: readonly string[] | undefined

/** The names of the members marked `x-sensitive` (for places that know neither kind nor path). */
export function sensitiveMemberNames(): ReadonlySet<string> {
  return new Set(allSensitiveFields().map((path) => path.slice(path.lastIndexOf('.') + 1)))
}

function collect(place: SchemaPlace, prefix: string, open: Set<string>): string[] {
  // A schema that refers to itself (a tree) would never end.
  const here = `${place.file}#${place.pointer}`
  if (open.has(here)) return []
  open.add(here)
  const found: string[] = []
  const items = place.schema.items ? childOf(schemaDocuments, place, 'items') : undefined
  if (items) found.push(...collect(items, prefix, open))
  for (const [member, raw] of Object.entries((place.schema.properties ?? {}) as Record<string, Record<string, unknown>>)) {
    const path = prefix ? `${prefix}.${member}` : member
    const child = childOf(schemaDocuments, place, 'properties', member)!
    if (raw['x-sensitive'] === true || child.schema['x-sensitive'] === true) found.push(path)
    else found.push(...collect(child, path, open))
  }
  open.delete(here)
  return found
}
