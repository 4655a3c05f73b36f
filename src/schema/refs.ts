/**
 * The one `$ref` walker of the schemas. It imports nothing (scripts/generate.js loads this file
 * on its own, before anything is built): callers hand it the documents.
 */

export type JsonSchema = Record<string, unknown>

/** A schema document by file name (`common.schema.json`); the file "" is the caller's own document. */
export type Documents = (file: string) => JsonSchema

/** A place in the schemas, `$ref`s followed: the file and JSON pointer of `schema`. */
export interface SchemaPlace {
  file: string
  /** "" for the document's root, `/definitions/label`. */
  pointer: string
  schema: JsonSchema
}

/** `common.schema.json#/definitions/label` → its file ("" when the ref stays in its own file) and pointer. */
export function parseRef(ref: string): { file: string; pointer: string } {
  const hash = ref.indexOf('#')
  return hash === -1 ? { file: ref, pointer: '' } : { file: ref.slice(0, hash), pointer: ref.slice(hash + 1) }
}

/** A member name as a JSON pointer segment. */
export const pointerSegment = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1')

/** The value at a JSON pointer, or undefined where there is none. */
export function atPointer(document: JsonSchema, pointer: string): JsonSchema | undefined {
  let node: unknown = document
  for (const segment of pointer.split('/').slice(1)) {
    const key = segment.replaceAll('~1', '/').replaceAll('~0', '~')
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined
    node = (node as JsonSchema)[key]
  }
  return node !== null && typeof node === 'object' ? (node as JsonSchema) : undefined
}

/** Chains longer than this are loops (`a` → `b` → `a`): no schema of ours comes near. */
const MAX_HOPS = 64

/** Follows the `$ref` chain from a place; a ref without a file stays in the file it is written in. */
export function follow(documents: Documents, place: SchemaPlace): SchemaPlace {
  let current = place
  for (let hops = 0; typeof current.schema.$ref === 'string'; hops++) {
    const ref = current.schema.$ref
    if (hops === MAX_HOPS) throw new Error(`schema ${current.file}#${current.pointer}: the $ref chain does not end (${ref})`)
    const target = parseRef(ref)
    const file = target.file || current.file
    const schema = atPointer(documents(file), target.pointer)
    if (!schema) throw new Error(`schema ${current.file}#${current.pointer}: $ref ${ref} points nowhere`)
    current = { file, pointer: target.pointer, schema }
  }
  return current
}

/** The schema at `file#pointer`, `$ref`s followed. */
export function placeAt(documents: Documents, file: string, pointer = ''): SchemaPlace {
  const schema = atPointer(documents(file), pointer)
  if (!schema) throw new Error(`schema ${file}#${pointer}: no such place`)
  return follow(documents, { file, pointer, schema })
}

/** A member of a place (`properties`, then the name; or `items`), `$ref`s followed; undefined where there is none. */
export function childOf(documents: Documents, place: SchemaPlace, ...keys: string[]): SchemaPlace | undefined {
  const pointer = `${place.pointer}/${keys.map(pointerSegment).join('/')}`
  const schema = atPointer(place.schema, `/${keys.map(pointerSegment).join('/')}`)
  return schema ? follow(documents, { file: place.file, pointer, schema }) : undefined
}
