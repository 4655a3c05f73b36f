import { Ajv } from 'ajv'
import * as ajvFormats from 'ajv-formats'

// ajv-formats is CommonJS; under NodeNext its function arrives as the `default` member.
const addFormats = ajvFormats.default as unknown as (ajv: Ajv) => Ajv

/**
 * The Ajv that compiles policy rules (design.md, "Policies"): `strictSchema` on, so that a
 * misspelt keyword (`requried`) or an unknown format is an error in the rule file instead of a
 * rule that silently passes; `allErrors` off, since a violation needs only the first failure and
 * stopping there keeps thousands of resources × tens of rules in milliseconds. The strict checks
 * about types (`properties` without `type: object`) stay off: the contract's own example is
 * written that way, and such a schema means what its author meant.
 */
export function createPolicyAjv(): Ajv {
  const ajv = new Ajv({
    allErrors: false,
    strict: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allowUnionTypes: true,
    // Compiling costs more than a plan's rules take to run: the code Ajv writes unoptimised
    // compiles in about half the time, and still checks thousands of resources in milliseconds.
    code: { optimize: false },
  })
  addFormats(ajv)
  return ajv
}
