import { _, Ajv, type Options } from 'ajv'
import schemaFormats from './formats.cjs'
import { readSchema, SCHEMA_ANNOTATIONS, SCHEMA_FILES } from './files.js'

/** An Ajv instance that knows every schema in schemas/ by its $id. */
export function createAjv(options: Options = {}): Ajv {
  // The validators compiled ahead of time (dist/schema/validators.cjs, beside formats.cjs) require the formats from there.
  const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, strict: true, ...options, code: { ...options.code, formats: _`require("./formats.cjs").formats` } })
  for (const [name, format] of Object.entries(schemaFormats.formats)) ajv.addFormat(name, format)
  for (const keyword of SCHEMA_ANNOTATIONS) ajv.addKeyword({ keyword, schemaType: ['string', 'boolean'] })
  for (const name of SCHEMA_FILES) ajv.addSchema(readSchema(name), name)
  return ajv
}
