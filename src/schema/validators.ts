import type { Options, ValidateFunction } from 'ajv'
import { requireBuilt } from '../core/code-cache.js'
import { createAjv } from './ajv.js'
import { RESPONSE_SCHEMA_FILES, type ResponseSchemaFile, type SchemaFile } from './files.js'
import { appendErrorsInPlace } from './validator-code.js'

/**
 * The schemas scansync itself validates against, by the name its code uses: the documents it reads,
 * and every response schema by its file name (a kind's module names its own: `responseValidator`).
 */
export const VALIDATOR_SCHEMAS = {
  config: 'config.schema.json',
  listPage: 'list-page.response.schema.json',
  teamResponse: 'team.response.schema.json',
  teamListPage: 'team-list-page.response.schema.json',
  plan: 'plan.schema.json',
  savedPlan: 'saved-plan.schema.json',
  audit: 'audit.schema.json',
  state: 'state.schema.json',
  ...(Object.fromEntries(RESPONSE_SCHEMA_FILES.map((file) => [file, file])) as { [File in ResponseSchemaFile]: File }),
} as const satisfies Record<string, SchemaFile>

export type ValidatorName = keyof typeof VALIDATOR_SCHEMAS

/**
 * Every error (config diagnostics are reported all at once) with its schema (for the wording),
 * gathered in time linear in their number (see appendErrorsInPlace).
 */
export const VALIDATOR_OPTIONS: Options = { allErrors: true, verbose: true, code: { process: appendErrorsInPlace } }

type Compiled = Record<ValidatorName, ValidateFunction>

const compiled = requireBuilt(new URL('./validators.cjs', import.meta.url)) as Compiled | undefined
// Ajv itself is loaded only where the validators were not compiled ahead of time (running from the sources).
const runtime = compiled ? undefined : createAjv(VALIDATOR_OPTIONS)

/**
 * A validator. `npm run build` compiles them ahead of time (scripts/compile-validators.js →
 * dist/schema/validators.cjs) so that commands do not spend their start-up compiling schemas; from the
 * sources (tests) they are compiled on first use from the same schemas with the same options.
 */
export function validator(name: ValidatorName): ValidateFunction {
  if (compiled) return compiled[name]
  return runtime!.getSchema(VALIDATOR_SCHEMAS[name])!
}
