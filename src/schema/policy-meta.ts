import type { ErrorObject, ValidateFunction } from 'ajv'
import { requireBuilt } from '../core/code-cache.js'

/**
 * The policy Ajv's validator of the draft-07 meta-schema, compiled at build time
 * (scripts/compile-validators.js → dist/schema/policy-meta.cjs, code of this package, never of
 * the configuration): checking that rules are JSON Schemas then costs no compilation of the
 * meta-schema. Undefined when running from the sources: the caller asks Ajv itself.
 */
let loaded: { validate?: ValidateFunction } | undefined

/** Loaded at the first rule: a configuration without rules never loads it. */
function precompiled(): ValidateFunction | undefined {
  loaded ??= { validate: requireBuilt(new URL('./policy-meta.cjs', import.meta.url)) as ValidateFunction | undefined }
  return loaded.validate
}

/**
 * Whether a rule's schema is a JSON Schema: undefined when it is, else Ajv's errors (the first
 * one, as `allErrors` is off). Undefined too when this cannot tell without Ajv: a schema naming
 * its own `$schema`, or no precompiled validator (`knows` says which).
 */
export function metaSchemaErrors(schema: unknown): { knows: boolean; errors?: ErrorObject[] } {
  if (typeof schema === 'boolean') return { knows: true }
  const validate = precompiled()
  if (!validate || schema === null || typeof schema !== 'object' || Object.hasOwn(schema, '$schema')) return { knows: false }
  return validate(schema) ? { knows: true } : { knows: true, errors: validate.errors ?? [] }
}

/** Where draft-07 has schemas: maps of them, lists of them, and single ones (`items` either). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', 'dependencies'])
const SCHEMA_LISTS = new Set(['items', 'allOf', 'anyOf', 'oneOf'])
const SCHEMA_VALUES = new Set(['additionalItems', 'items', 'contains', 'additionalProperties', 'propertyNames', 'if', 'then', 'else', 'not'])

/**
 * The schema as the meta-schema check is given it: every `enum` of plain values (strings, numbers,
 * booleans, null) that repeats none of them cut to its first value. The meta-schema asks of an
 * `enum` only that it be a list of at least one value that repeats none, and Ajv checks "repeats
 * none" by comparing every pair of values when they may be of any type: an allowed list of 4,000
 * values cost 8 million comparisons in every command that loads the rule. Told apart here in one
 * pass, such a list meets the meta-schema as its first value alone does, so the check's answer
 * (and its first error, elsewhere in the schema) is the same. A list with a repeat, or with an
 * object or a list among its values, is left to Ajv (its error names the two items). Only the
 * check sees the copy: the rule is compiled as written.
 */
export function shortenedForMetaCheck(schema: unknown): unknown {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema
  let copy: Record<string, unknown> | undefined
  const set = (key: string, value: unknown): void => {
    copy ??= { ...(schema as Record<string, unknown>) }
    copy[key] = value
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'enum' && Array.isArray(value) && value.length > 1 && repeatsNoPlainValue(value)) set(key, [value[0]])
    if (SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      let members: Record<string, unknown> | undefined
      for (const [name, sub] of Object.entries(value)) {
        const shortened = shortenedForMetaCheck(sub)
        if (shortened !== sub) (members ??= { ...(value as Record<string, unknown>) })[name] = shortened
      }
      if (members) set(key, members)
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      const shortened = value.map(shortenedForMetaCheck)
      if (shortened.some((sub, i) => sub !== value[i])) set(key, shortened)
    } else if (SCHEMA_VALUES.has(key)) {
      const shortened = shortenedForMetaCheck(value)
      if (shortened !== value) set(key, shortened)
    }
  }
  return copy ?? schema
}

/** Whether a list holds plain values only (no object, no list), none twice (as Ajv's deep equality tells: 0 and -0 are one). */
function repeatsNoPlainValue(values: readonly unknown[]): boolean {
  const seen = new Set<string>()
  for (const value of values) {
    if (value !== null && typeof value === 'object') return false
    const key = `${value === null ? 'null' : typeof value}:${String(value)}`
    if (seen.has(key)) return false
    seen.add(key)
  }
  return true
}
