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
