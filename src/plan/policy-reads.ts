/**
 * What of a resource a set of rules can look at, found from their schemas: `true` for a whole
 * value, or the members of an object a rule names (`properties`, `required`), each with what is
 * read of it. The after-apply shape is then built for those members only (a live target has some
 * hundred fields; rules name a few), and a rule sees exactly what it would in the whole shape.
 *
 * Anything not known to read only named members (a keyword that lists or counts the members, or
 * compares the whole value, a `$ref`, a keyword of no vocabulary) reads the whole value.
 */
export type Reads = true | Map<string, Reads>

/** Keywords that look only at the value itself, never at an object's members. */
const ABOUT_THE_VALUE = new Set([
  'type', 'nullable', 'format', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment', 'contentMediaType', 'contentEncoding', '$schema', '$id', 'definitions', '$defs',
])
/** Keywords whose schemas apply to the same value. */
const SAME_VALUE = new Set(['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else'])

/** What one schema reads of the value it applies to. */
export function readsOf(schema: unknown): Reads {
  if (typeof schema === 'boolean') return new Map()
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return true
  let reads: Reads = new Map()
  for (const [keyword, value] of Object.entries(schema)) {
    if (ABOUT_THE_VALUE.has(keyword)) continue
    if (keyword === 'properties' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [name, sub] of Object.entries(value)) reads = union(reads, new Map([[name, readsOf(sub)]]))
    } else if (keyword === 'required' && Array.isArray(value) && value.every((name) => typeof name === 'string')) {
      // Whether the member is there: an empty read keeps it (an object as `{}`).
      for (const name of value as string[]) reads = union(reads, new Map([[name, new Map()]]))
    } else if (SAME_VALUE.has(keyword)) {
      for (const sub of Array.isArray(value) ? value : [value]) reads = union(reads, readsOf(sub))
    } else return true
    if (reads === true) return true
  }
  return reads
}

/** What either reads. */
export function union(a: Reads, b: Reads): Reads {
  if (a === true || b === true) return true
  const out = new Map(a)
  for (const [name, read] of b) out.set(name, out.has(name) ? union(out.get(name)!, read) : read)
  return out
}
