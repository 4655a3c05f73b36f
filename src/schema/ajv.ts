import { Ajv, type Options } from 'ajv'
import * as ajvFormats from 'ajv-formats'
import { readSchema, SCHEMA_ANNOTATIONS, SCHEMA_FILES } from './files.js'

// ajv-formats is CommonJS; under NodeNext its function arrives as the `default` member.
const addFormats = ajvFormats.default as unknown as (ajv: Ajv, formats: string[]) => Ajv

/** An Ajv instance that knows every schema in schemas/ by its $id. */
export function createAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, strict: true, ...options })
  addFormats(ajv, ['uri', 'email', 'date-time', 'uuid'])
  for (const keyword of SCHEMA_ANNOTATIONS) ajv.addKeyword({ keyword, schemaType: ['string', 'boolean'] })
  for (const name of SCHEMA_FILES) ajv.addSchema(readSchema(name), name)
  return ajv
}
