import { createRequire } from 'node:module'
import type { Ajv, Options } from 'ajv'
import { requireBuilt } from '../core/code-cache.js'

// Ajv is CommonJS: required as such, it loads without the ESM wrapper's scan of its exports.
const require = createRequire(import.meta.url)

type AddFormats = (ajv: Ajv) => Ajv

/**
 * Ajv and ajv-formats, from the one file the build makes of them (scripts/bundle.js: ~10 ms to
 * load instead of ~35 for Ajv's ~40 files); from the packages themselves when running from the
 * sources, where there is no such file.
 */
function loadAjv(): { Ajv: typeof import('ajv').Ajv; addFormats: AddFormats } {
  const built = requireBuilt(new URL('./ajv.bundle.cjs', import.meta.url)) as { Ajv: typeof import('ajv').Ajv; addFormats: AddFormats } | undefined
  return built ?? { Ajv: (require('ajv') as typeof import('ajv')).Ajv, addFormats: (require('ajv-formats') as { default: AddFormats }).default }
}

export interface PolicyAjvOptions {
  /** Whether the rules name a `format` (ajv-formats is loaded and added only then). */
  formats?: boolean
  /** Ajv options over the policy ones (the build asks for the code's source). */
  ajv?: Options
}

/**
 * The Ajv that compiles policy rules (design.md, "Policies"): `strictSchema` on, so that a
 * misspelt keyword (`requried`) or an unknown format is an error in the rule file instead of a
 * rule that silently passes; `allErrors` off, since a violation needs only the first failure and
 * stopping there keeps thousands of resources × tens of rules in milliseconds. The strict checks
 * about types (`properties` without `type: object`) stay off: the contract's own example is
 * written that way, and such a schema means what its author meant.
 *
 * Rules are checked against the meta-schema before they are compiled (src/schema/policy-meta.ts,
 * with this Ajv's own validator of it compiled at build time), so `compile` does not check them
 * again: compiling the meta-schema cost more than compiling twenty rules.
 */
export function createPolicyAjv(options: PolicyAjvOptions = {}): Ajv {
  const { Ajv: AjvClass, addFormats } = loadAjv()
  const ajv = new AjvClass({
    allErrors: false,
    strict: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allowUnionTypes: true,
    validateSchema: false,
    // Compiling costs more than a plan's rules take to run: the code Ajv writes unoptimised
    // compiles in about half the time, and still checks thousands of resources in milliseconds.
    code: { optimize: false, process: namedForTheFilter },
    ...options.ajv,
  })
  if (options.formats ?? true) addFormats(ajv)
  return ajv
}

/**
 * The prefix of the functions V8's optimising compiler leaves alone (bin/v8-flags.js sets
 * `--turbo-filter=-unoptimised*`), among them the code that checks each resource of a plan against
 * the rules (src/plan/policies.ts). Compiling twenty rules' validators and the shape builders with
 * TurboFan cost ~100 ms of CPU in a plan of 4,200 resources, more than the optimised code saves there.
 */
export const UNOPTIMISED_PREFIX = 'unoptimised'

/** Ajv's function header, where Ajv writes it: after the scope's references, which hold no quoted text. */
const VALIDATOR_HEADER = /^([^"'`]*)return function (validate\d+)\(/

/**
 * Ajv's code for a rule (`const schema0 = scope.schema[0];return function validate0(data, …){…}`)
 * with its function named for the filter and bound to the name its body uses:
 * `…const validate0 = function unoptimisedRule_validate0(data, …){…};return validate0`. Only the
 * header is rewritten, never a rule's own strings or property names; code of another shape is
 * left as it is (then merely optimisable).
 */
export function namedForTheFilter(code: string): string {
  const header = VALIDATOR_HEADER.exec(code)
  if (!header) return code
  const [whole, scopeRefs, name] = header as unknown as [string, string, string]
  return `${scopeRefs}const ${name} = function ${UNOPTIMISED_PREFIX}Rule_${name}(${code.slice(whole.length)};return ${name}`
}

/** The meta-schema a rule is written in (draft-07, Ajv's default). */
export const POLICY_META_SCHEMA = 'http://json-schema.org/draft-07/schema'
