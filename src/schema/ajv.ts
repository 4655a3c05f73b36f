import { createRequire } from 'node:module'
import type { Ajv, Options } from 'ajv'
import schemaFormats from './formats.cjs'
import { readSchema, SCHEMA_ANNOTATIONS, SCHEMA_FILES } from './files.js'

/**
 * An Ajv instance that knows every schema in schemas/ by its $id. Ajv is required when first
 * asked for, so that importing this module costs a run nothing (src/schema/validators.ts imports
 * it for running from the sources, where the validators were not compiled ahead of time).
 */
export function createAjv(options: Options = {}): Ajv {
  const { _, Ajv } = createRequire(import.meta.url)('ajv') as typeof import('ajv')
  // The validators compiled ahead of time (dist/schema/validators.cjs, beside formats.cjs) require the formats from there.
  const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, strict: true, ...options, code: { ...options.code, formats: _`require("./formats.cjs").formats` } })
  for (const [name, format] of Object.entries(schemaFormats.formats)) ajv.addFormat(name, format)
  for (const keyword of SCHEMA_ANNOTATIONS) ajv.addKeyword({ keyword, schemaType: ['string', 'boolean'] })
  for (const name of SCHEMA_FILES) ajv.addSchema(readSchema(name), name)
  return ajv
}
