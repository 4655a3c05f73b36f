import { line, type Io } from '../core/io.js'
import { hasErrors, type Violation } from '../plan/policies.js'
import type { ChangeResult, Plan } from '../plan/model.js'
import { violationsGithub, violationsText, type Format } from '../render/index.js'

/** Why nothing of a plan was sent: a policy of level error. */
export const POLICY_REFUSAL = 'not sent: the configuration breaks a policy of level error'

/**
 * Shows the policy violations where the format puts them before an apply (annotations on stdout
 * for `github`, lines on stderr for text and markdown, whose comment holds only the first of them;
 * `json` and `markdown` carry them in the report) and
 * says whether the apply may go on: a violation of level error stops it before anything is sent.
 */
export function passesPolicies(violations: readonly Violation[] | undefined, format: Format, io: Io): boolean {
  if (!violations || violations.length === 0) return true
  if (format === 'github') io.stdout.write(violationsGithub(violations))
  else if (format === 'text' || format === 'markdown') io.stderr.write(violationsText(violations))
  if (!hasErrors(violations)) return true
  line(io.stderr, 'The configuration breaks a policy of level error; nothing was sent.')
  return false
}

/** The results of a plan refused by a policy: each change not applied, saying why. */
export const refusedByPolicy = (plan: Plan): ChangeResult[] => plan.changes.map((change) => ({ ...change, result: 'not_applied', error: POLICY_REFUSAL }))
