/**
 * The client's part of the one redaction step (core/redaction.ts): the run's Redaction, which
 * always knows the token, so that no message or debug line of the client can carry it.
 */
import { isWeakSecret, Redaction, TOKEN_PLACEHOLDER } from '../core/redaction.js'

export { TOKEN_PLACEHOLDER }

export type Redactor = (text: string) => string

/**
 * The caller's redaction (or one of the client's own), taught the token, and a proxy's secret
 * where it is long enough to replace (it goes to the proxy alone, and no message of ours names it:
 * a short one is not worth withholding every text of the service for).
 */
export function clientRedaction(token: string, redaction: Redaction = new Redaction(), proxySecrets: readonly string[] = []): Redaction {
  redaction.add([token], TOKEN_PLACEHOLDER)
  redaction.add(proxySecrets.filter((secret) => !isWeakSecret(secret)))
  return redaction
}
