/**
 * Ajv (8) gathers the errors of a referenced schema with `vErrors = vErrors.concat(ref.errors)`:
 * a copy of every error so far for each failing item, so validating a list of n bad items takes
 * time quadratic in n (20,000 bad labels in a 100 KB file took 40 s; a larger file, hours).
 * This rewrites the generated code to append in place. Applied to the validators compiled at run
 * time (the `code.process` option) and to the precompiled ones (scripts/compile-validators.js).
 */
const CONCAT = /vErrors = vErrors === null \? ([\w$.]+\.errors) : vErrors\.concat\(\1\);/g

export function appendErrorsInPlace(code: string): string {
  return code.replace(CONCAT, (_, errors: string) => `if (vErrors === null) vErrors = ${errors}; else for (const e of ${errors}) vErrors.push(e);`)
}
