import { line, type Io } from '../core/io.js'
import type { PolicyRule } from '../config/policies.js'
import { hasErrors, PolicyChecker, sortViolations, type Violation } from '../plan/policies.js'
import type { Ready } from '../plan/staleness.js'
import type { ChangeResult, Plan } from '../plan/model.js'
import { annotationPaths, violationsGithub, violationsSummary, violationsText, type Format } from '../render/index.js'

/** Why nothing of a plan was sent: a policy of level error. */
export const POLICY_REFUSAL = 'not sent: the configuration breaks a policy of level error'

/**
 * Shows the policy violations where the format puts them before an apply (annotations on stdout
 * for `github`, lines on stderr for text and markdown, whose comment holds only the first of them;
 * `json` and `markdown` carry them in the report) and
 * says whether the apply may go on: a violation of level error stops it before anything is sent.
 */
export function passesPolicies(violations: readonly Violation[] | undefined, format: Format, io: Io, positionsFrom = io.cwd): boolean {
  if (!violations || violations.length === 0) return true
  // GitHub shows ten annotations a level: the line after them counts them all, as plan's and drift's do.
  if (format === 'github') io.stdout.write(violationsGithub(violations, annotationPaths(io.env.GITHUB_WORKSPACE, positionsFrom)) + violationsSummary(violations) + '\n')
  else if (format === 'text' || format === 'markdown') io.stderr.write(violationsText(violations))
  if (!hasErrors(violations)) return true
  line(io.stderr, 'The configuration breaks a policy of level error; nothing was sent.')
  return false
}

/** The results of a plan refused by a policy: each change not applied, saying why. */
export const refusedByPolicy = (plan: Plan): ChangeResult[] => plan.changes.map((change) => ({ ...change, result: 'not_applied', error: POLICY_REFUSAL }))

/**
 * The violations once the resources about to be sent were read again (after the confirmation, or
 * after a wait for another apply's creation lock). Their requests are built from that read, which
 * keeps a hand change made meanwhile to a field the YAML does not declare (README, "Secrets and the
 * state file"); rules see a resource as it will be after the apply, so they are checked again on
 * it: a hand change made while the prompt waited that breaks a rule of level error refuses the
 * apply as the same change made before the plan would. A target to create is checked on what the
 * YAML declares over the service's defaults, which no read changes: its earlier violations stand,
 * as do those of resources not sent (unchanged, or already as planned).
 */
export function violationsAfterRead(rules: readonly PolicyRule[] | undefined, earlier: readonly Violation[] | undefined, ready: readonly Ready[], holdsSecret: (text: string) => boolean): readonly Violation[] | undefined {
  if (!rules || rules.length === 0) return earlier
  const checker = new PolicyChecker(rules, { holdsSecret })
  const reread = new Set<string>()
  for (const { planned, comparison } of ready) {
    if (planned.change.action === 'create' || !checker.checks(comparison.desired.kind)) continue
    reread.add(`${comparison.desired.kind}/${comparison.desired.id}`)
    checker.checkAfterApply(comparison.kind, comparison.desired.id, comparison.desired, comparison.live, { unchanged: comparison.fields.length === 0 })
  }
  const kept = (earlier ?? []).filter((v) => !reread.has(`${v.kind}/${v.id}`))
  const all = sortViolations([...kept, ...checker.violations()])
  return earlier === undefined && all.length === 0 ? undefined : all
}

/** A violation's identity, to tell those found on the fresh read from those already shown. */
const violationKey = (v: Violation): string => JSON.stringify([v.policy, v.level, v.kind, v.id, v.message])

/**
 * As passesPolicies, for the violations found again after a fresh read: shows only those not
 * shown before the confirmation (the others were, and did not stop the apply), and stops it when
 * any of level error is among them.
 */
export function passesPoliciesAgain(earlier: readonly Violation[] | undefined, now: readonly Violation[] | undefined, format: Format, io: Io, positionsFrom = io.cwd): boolean {
  const shown = new Set((earlier ?? []).map(violationKey))
  const found = (now ?? []).filter((v) => !shown.has(violationKey(v)))
  if (found.length === 0) return true
  line(io.stderr, 'Read again before sending, the resources break policies they did not break in the plan:')
  return passesPolicies(found, format, io, positionsFrom)
}
