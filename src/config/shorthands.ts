import { follow, type JsonSchema } from '../schema/refs.js'
import type { PathSegments } from '../core/diagnostics.js'

/** Per root schema: each sub-schema resolved past its $refs, and whether a shorthand can occur inside. */
const plans = new WeakMap<JsonSchema, Map<JsonSchema, SchemaPlan>>()

interface SchemaPlan {
  shorthandFor?: string
  items?: SchemaPlan
  /** Only the properties under which a shorthand can occur. */
  properties?: Map<string, SchemaPlan>
  /** The same, as a list (made on first use, once the plan is complete). */
  members?: Array<[string, SchemaPlan]>
  /** False when no value under this schema can be a shorthand: the walk skips it. */
  reaches: boolean
}

function planOf(rootSchema: JsonSchema): (schema: JsonSchema) => SchemaPlan {
  let cache = plans.get(rootSchema)
  if (!cache) plans.set(rootSchema, (cache = new Map()))
  const known = cache
  // One self-contained document: every $ref stays in it.
  const resolve = (schema: JsonSchema): JsonSchema => follow(() => rootSchema, { file: '', pointer: '', schema }).schema
  const plan = (schema: JsonSchema): SchemaPlan => {
    const resolved = resolve(schema)
    const existing = known.get(resolved)
    if (existing) return existing
    // Registered before its parts, so that a schema that contains itself ends; until it is known,
    // it counts as reaching a shorthand (the safe answer: the walk looks).
    const result: SchemaPlan = { reaches: true }
    known.set(resolved, result)
    const shorthandFor = resolved['x-shorthand-for']
    if (typeof shorthandFor === 'string') result.shorthandFor = shorthandFor
    if (resolved.items) {
      const items = plan(resolved.items as JsonSchema)
      if (items.reaches) result.items = items
    }
    if (resolved.properties) {
      const properties = new Map<string, SchemaPlan>()
      for (const [key, property] of Object.entries(resolved.properties as Record<string, JsonSchema>)) {
        const child = plan(property)
        if (child.reaches) properties.set(key, child)
      }
      if (properties.size > 0) result.properties = properties
    }
    result.reaches = result.shorthandFor !== undefined || result.items !== undefined || result.properties !== undefined
    return result
  }
  return plan
}

/**
 * Expands the shorthands the schema allows (`x-shorthand-for`: a bare string standing for an
 * object with that one member, such as a label name) in place, walking the value with its schema.
 * `onExpand` hears of each expansion: the place of the bare string and the member it became.
 * Parts of the value whose schema holds no shorthand are not visited.
 */
export function expandShorthands(value: unknown, rootSchema: JsonSchema, onExpand?: (path: PathSegments, member: string) => void): void {
  const plan = planOf(rootSchema)(rootSchema)
  if (!plan.reaches) return
  if (!onExpand) {
    expandIn(value, plan)
    return
  }
  const path: Array<string | number> = []
  const walk = (node: unknown, plan: SchemaPlan): unknown => {
    if (plan.shorthandFor !== undefined && typeof node === 'string') {
      onExpand([...path], plan.shorthandFor)
      return expanded(plan.shorthandFor, node)
    }
    if (Array.isArray(node)) {
      if (!plan.items) return node
      for (let i = 0; i < node.length; i++) {
        path.push(i)
        node[i] = walk(node[i], plan.items)
        path.pop()
      }
    } else if (node !== null && typeof node === 'object' && plan.properties) {
      const object = node as Record<string, unknown>
      // In the value's own order, so that `onExpand` hears of places as they are written.
      for (const key of Object.keys(object)) {
        const property = plan.properties.get(key)
        if (!property) continue
        path.push(key)
        object[key] = walk(object[key], property)
        path.pop()
      }
    }
    return node
  }
  walk(value, plan)
}

/**
 * The walk when no one listens: no path is kept, and a mapping is looked up by the few members
 * under which a shorthand can occur rather than walked member by member (the order in which
 * members are replaced in place changes nothing).
 */
function expandIn(node: unknown, plan: SchemaPlan): unknown {
  if (plan.shorthandFor !== undefined && typeof node === 'string') return expanded(plan.shorthandFor, node)
  if (Array.isArray(node)) {
    const items = plan.items
    if (!items) return node
    for (let i = 0; i < node.length; i++) node[i] = expandIn(node[i], items)
  } else if (node !== null && typeof node === 'object' && plan.properties) {
    const object = node as Record<string, unknown>
    const members = (plan.members ??= [...plan.properties])
    // Parsed YAML holds own enumerable members only: an own member is one the walk in order meets.
    for (let i = 0; i < members.length; i++) {
      const [key, property] = members[i]
      if (Object.hasOwn(object, key)) object[key] = expandIn(object[key], property)
    }
  }
  return node
}

/** `{ name: "production" }` for the label `production`. */
function expanded(member: string, value: string): Record<string, unknown> {
  return { [member]: value }
}
