import { SENSITIVE, type JsonObject } from '../core/types.js'

/**
 * The texts a declaration writes as they are, given its fields with each value from a variable
 * made `(sensitive)` (declaredForRules): the repository's own texts. One that happens to hold a
 * secret the live resource holds in clear (a URL password `staging` in `Shop (staging)`) says
 * nothing the repository does not, so rules read it and plans show it as written.
 */
export function literalTexts(declared: unknown, into = new Set<string>()): Set<string> {
  if (typeof declared === 'string') {
    if (declared !== SENSITIVE) into.add(declared)
  } else if (Array.isArray(declared)) for (const item of declared) literalTexts(item, into)
  else if (declared !== null && typeof declared === 'object') for (const key in declared) literalTexts((declared as JsonObject)[key], into)
  return into
}
