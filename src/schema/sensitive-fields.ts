import { readSchema, SCHEMA_FILES, type JsonSchema, type SchemaFile } from './files.js'
import { resolveRef } from './request-schema.js'

const REQUEST_SCHEMAS = SCHEMA_FILES.filter((file) => file.endsWith('.request.schema.json'))

const cache = new Map<SchemaFile, readonly string[]>()

/**
 * The members a request schema marks `x-sensitive` (sensitive whatever their flags say), as
 * dotted paths without list indexes (`site.otp_secret`): the schemas are the one list of them.
 */
export function sensitiveFields(file: SchemaFile): readonly string[] {
  let fields = cache.get(file)
  if (!fields) {
    fields = collect(resolveRef(readSchema(file)), '', new Set())
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

function collect(node: JsonSchema, prefix: string, open: Set<JsonSchema>): string[] {
  // A schema that refers to itself (a tree) would never end.
  if (open.has(node)) return []
  open.add(node)
  const found: string[] = []
  if (node.items) found.push(...collect(resolveRef(node.items as JsonSchema), prefix, open))
  for (const [member, raw] of Object.entries((node.properties ?? {}) as Record<string, JsonSchema>)) {
    const path = prefix ? `${prefix}.${member}` : member
    const child = resolveRef(raw)
    if (raw['x-sensitive'] === true || child['x-sensitive'] === true) found.push(path)
    else found.push(...collect(child, path, open))
  }
  open.delete(node)
  return found
}
