import type { ValidateFunction } from 'ajv'
import { createAjv } from '../schema/ajv.js'
import { schemaDocuments, shorthandMember as shorthandFor, type JsonSchema, type SchemaFile } from '../schema/files.js'
import { childOf, placeAt, type SchemaPlace } from '../schema/refs.js'

/**
 * A place in a request schema, `$ref`s followed: what import needs to know of a field to decide
 * whether and how to write it. Everything comes from schemas/, the single source of truth.
 */
export interface SchemaNode extends SchemaPlace {
  /** `file#/json/pointer` of the resolved schema, for Ajv. */
  ref: string
}

const nodeOf = (place: SchemaPlace): SchemaNode => ({ ...place, ref: `${place.file}#${place.pointer}` })

export const rootNode = (file: SchemaFile): SchemaNode => nodeOf(placeAt(schemaDocuments, file))

/** The members of an object node, in the schema's order. */
export function membersOf(node: SchemaNode): string[] {
  const properties = node.schema.properties as Record<string, JsonSchema> | undefined
  return properties ? Object.keys(properties) : []
}

export function memberNode(node: SchemaNode, member: string): SchemaNode | undefined {
  const place = childOf(schemaDocuments, node, 'properties', member)
  return place && nodeOf(place)
}

export function itemsNode(node: SchemaNode): SchemaNode | undefined {
  const place = childOf(schemaDocuments, node, 'items')
  return place && nodeOf(place)
}

export const requiredOf = (node: SchemaNode): readonly string[] => (node.schema.required as string[] | undefined) ?? []

const types = (node: SchemaNode): string[] => {
  const type = node.schema.type
  return Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : []
}

export const isObjectNode = (node: SchemaNode) => types(node).includes('object') || node.schema.properties !== undefined
export const isArrayNode = (node: SchemaNode) => types(node).includes('array')
export const allowsNull = (node: SchemaNode) => types(node).includes('null')

/** The value the interface document gives as the default (the `default` keyword), if any. */
export const defaultOf = (node: SchemaNode): { value: unknown } | undefined =>
  Object.hasOwn(node.schema, 'default') ? { value: node.schema.default } : undefined

/**
 * The member a bare string stands for where the configuration allows a shorthand here (a label
 * name, a team id): the `x-config-shorthand` definition's `x-shorthand-for`.
 */
export const shorthandMember = (node: SchemaNode): string | undefined => shorthandFor(node.schema)

let ajv: ReturnType<typeof createAjv> | undefined
const validators = new Map<string, ValidateFunction>()

/** Whether a scalar value satisfies the schema at this place (type, enum, pattern, length, format). */
export function accepts(node: SchemaNode, value: unknown): boolean {
  let validate = validators.get(node.ref)
  if (!validate) {
    ajv ??= createAjv({ allErrors: false })
    validate = ajv.getSchema(node.ref)!
    validators.set(node.ref, validate)
  }
  return validate(value) as boolean
}
