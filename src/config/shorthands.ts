import type { JsonSchema } from '../schemas.js'
import type { PathSegments } from './diagnostics.js'

/**
 * Expands the shorthands the schema allows (`x-shorthand-for`: a bare string standing for an
 * object with that one member, such as a label name) in place, walking the value with its schema.
 * `onExpand` hears of each expansion: the place of the bare string and the member it became.
 */
export function expandShorthands(value: unknown, rootSchema: JsonSchema, onExpand?: (path: PathSegments, member: string) => void): void {
  const definitions = (rootSchema.definitions ?? {}) as Record<string, JsonSchema>
  const resolve = (schema: JsonSchema): JsonSchema => {
    let current = schema
    while (typeof current.$ref === 'string') current = definitions[current.$ref.replace('#/definitions/', '')]
    return current
  }
  const walk = (node: unknown, schema: JsonSchema, path: Array<string | number>): unknown => {
    const resolved = resolve(schema)
    const shorthandFor = resolved['x-shorthand-for']
    if (typeof shorthandFor === 'string' && typeof node === 'string') {
      onExpand?.(path, shorthandFor)
      return { [shorthandFor]: node }
    }
    if (Array.isArray(node) && resolved.items) {
      for (let i = 0; i < node.length; i++) node[i] = walk(node[i], resolved.items as JsonSchema, [...path, i])
    } else if (node !== null && typeof node === 'object' && resolved.properties) {
      const properties = resolved.properties as Record<string, JsonSchema>
      const object = node as Record<string, unknown>
      for (const key of Object.keys(object)) {
        if (Object.hasOwn(properties, key)) object[key] = walk(object[key], properties[key], [...path, key])
      }
    }
    return node
  }
  walk(value, rootSchema, [])
}
