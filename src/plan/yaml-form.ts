import type { JsonObject } from '../core/types.js'
import type { ResourceKind } from '../resources/kind.js'
import type { Normalizer } from '../resources/normalize.js'
import { schemaDocuments } from '../schema/files.js'
import { childOf, placeAt, type SchemaPlace } from '../schema/refs.js'
import { placeSensitivity, type PlaceSensitivity } from '../schema/sensitivity.js'

/**
 * What the YAML's form of a kind says of one place of its request schema (schemas/ is the single
 * source of truth): the rules see live values in the form the YAML writes them (README, "The shape
 * a rule sees"), as `import` writes them.
 */
export interface FormNode {
  /** The members of an object place; a live member not among them (read-only: `risk`) passes as the service answers it. */
  readonly members: ReadonlyMap<string, FormNode> | undefined
  readonly items: FormNode | undefined
  /**
   * A text the YAML writes in the schema's pattern where the service answers another form of the
   * same value (`08:00:00` for `08:00`): the form the kind's normalizer maps it to.
   */
  readonly written: ((text: string) => string) | undefined
  /**
   * The kind's normalizer of a scalar here: a declared value equal to the live one through it is
   * no change (the plan sends nothing), so the value after the apply is the live one.
   */
  readonly normalize: Normalizer | undefined
  /** The switch without which the service's value here means nothing (the kind's `onlyWhile`). */
  readonly onlyWhile: ((resource: JsonObject) => boolean) | undefined
  /**
   * The top-level members the switch reads (found once, by running it on a recording object);
   * undefined when that could not be found. A resource that declares none of them has the switch
   * it has live.
   */
  readonly switchReads: readonly string[] | undefined
  /** What can make a text here a secret (src/schema/sensitivity.ts): the schemas' mark, a flag beside it, an entry's name. */
  readonly sensitivity: PlaceSensitivity
}

const forms = new WeakMap<ResourceKind, FormNode>()

/** The kind's form, built from its request schema once. */
export function formOf(kind: ResourceKind): FormNode {
  let form = forms.get(kind)
  if (!form) forms.set(kind, (form = build(kind, placeAt(schemaDocuments, kind.requestSchema), '', 0)))
  return form
}

/** No schema of ours nests half as deep; a deeper place is read as the service answers it. */
const MAX_DEPTH = 16

function build(kind: ResourceKind, place: SchemaPlace | undefined, path: string, depth: number, member = '', siblings: readonly string[] = []): FormNode {
  const schema = place?.schema
  const sensitivity = placeSensitivity(member, siblings, path !== '' && kind.sensitiveFields.includes(path))
  if (!place || !schema || depth > MAX_DEPTH) return { members: undefined, items: undefined, written: undefined, normalize: undefined, onlyWhile: undefined, switchReads: undefined, sensitivity }
  let members: Map<string, FormNode> | undefined
  const properties = schema.properties
  if (properties !== null && typeof properties === 'object' && !Array.isArray(properties)) {
    members = new Map()
    const names = Object.keys(properties)
    for (const name of names) members.set(name, build(kind, childOf(schemaDocuments, place, 'properties', name), path ? `${path}.${name}` : name, depth + 1, name, names))
  }
  // The kind's rules name a list's items by the list's path (no list keys).
  const items = schema.items !== undefined ? build(kind, childOf(schemaDocuments, place, 'items'), path, depth + 1, member, siblings) : undefined
  const rule = Object.hasOwn(kind.rules, path) ? kind.rules[path] : undefined
  const normalize = rule?.type === 'scalar' ? rule.normalize : undefined
  let written: FormNode['written']
  if (normalize && typeof schema.pattern === 'string') {
    // Ajv's reading of `pattern` (unicode); a value the pattern takes is the YAML's form already.
    const pattern = new RegExp(schema.pattern, 'u')
    written = (text) => {
      if (pattern.test(text)) return text
      const mapped = normalize(text)
      return typeof mapped === 'string' && pattern.test(mapped) ? mapped : text
    }
  }
  const onlyWhile = Object.hasOwn(kind.onlyWhile, path) ? kind.onlyWhile[path] : undefined
  return { members, items, written, normalize, onlyWhile, switchReads: onlyWhile && membersReadBy(onlyWhile), sensitivity }
}

/** The top-level members a switch reads, found by running it on an object that records them; undefined if it fails. */
function membersReadBy(onlyWhile: (resource: JsonObject) => boolean): string[] | undefined {
  const read = new Set<string>()
  const anything: object = new Proxy({}, { get: (_, key) => (key === Symbol.toPrimitive ? () => '' : anything) })
  const resource = new Proxy({}, { get: (_, key) => (typeof key === 'string' && read.add(key), anything) }) as JsonObject
  try {
    onlyWhile(resource)
    return [...read]
  } catch {
    return undefined
  }
}
