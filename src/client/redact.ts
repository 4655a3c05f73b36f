/**
 * Scrubbing of secrets from every text the client prints or puts into an error: the API
 * token always, and whatever the caller's `redact` knows of (the config's sensitive values).
 */

export const TOKEN_PLACEHOLDER = '(redacted)'

export type Redactor = (text: string) => string

/**
 * The token is removed before and after the caller's function, so that neither a partial
 * rewrite by the caller nor the caller's own output can let it through.
 */
export function createRedactor(token: string, redact?: (text: string) => string): Redactor {
  // The token as it is, and escaped inside a JSON string (a `"` or `\\` in it), as an echo may write it.
  const forms = token.length === 0 ? [] : [...new Set([token, JSON.stringify(token).slice(1, -1)])].sort((a, b) => b.length - a.length)
  const scrubToken = (text: string): string => {
    let out = text
    for (const form of forms) if (out.includes(form)) out = out.split(form).join(TOKEN_PLACEHOLDER)
    return out
  }
  if (!redact) return scrubToken
  return (text) => scrubToken(redact(scrubToken(text)))
}
