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
  const scrubToken = (text: string): string =>
    token.length > 0 && text.includes(token) ? text.split(token).join(TOKEN_PLACEHOLDER) : text
  if (!redact) return scrubToken
  return (text) => scrubToken(redact(scrubToken(text)))
}
