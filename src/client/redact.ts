/**
 * The client's part of the one redaction step (core/redaction.ts): the run's Redaction, which
 * always knows the token, so that no message or debug line of the client can carry it.
 */
import { Redaction, TOKEN_PLACEHOLDER } from '../core/redaction.js'

export { TOKEN_PLACEHOLDER }

export type Redactor = (text: string) => string

/** The caller's redaction (or one of the client's own), taught the token. */
export function clientRedaction(token: string, redaction: Redaction = new Redaction()): Redaction {
  redaction.add([token], TOKEN_PLACEHOLDER)
  return redaction
}
