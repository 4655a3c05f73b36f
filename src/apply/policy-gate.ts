import { line, type Io } from '../core/io.js'
import { hasErrors, type Violation } from '../plan/policies.js'
import { violationsGithub, violationsText, type Format } from '../render/index.js'

/**
 * Shows the policy violations (annotations on stdout for `github`, lines on stderr otherwise) and
 * says whether the apply may go on: a violation of level error stops it before anything is sent.
 */
export function passesPolicies(violations: readonly Violation[] | undefined, format: Format, io: Io): boolean {
  if (!violations || violations.length === 0) return true
  if (format === 'github') io.stdout.write(violationsGithub(violations))
  else io.stderr.write(violationsText(violations))
  if (!hasErrors(violations)) return true
  line(io.stderr, 'The configuration breaks a policy of level error; nothing was sent.')
  return false
}
