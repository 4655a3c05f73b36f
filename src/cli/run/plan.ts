import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { colorEnabled, Io, line, withRedaction } from '../../core/io.js'
import { EXIT } from '../../core/exit-codes.js'
import { annotationPaths, renderPlan, violationsText, type Format } from '../../render/index.js'
import { hasErrors } from '../../plan/policies.js'
import { guard } from './errors.js'
import { isStateFile, prepareOutputFile } from './output-file.js'
import { UsageError } from '../../core/errors.js'
import { PlanInputs, preparePlan, statePathFor } from './prepare-plan.js'
import { listedSecrets, undeclared } from './identify.js'
import { learnLiveSecrets } from '../../secrets/known.js'
import { savedPlanDocument, writeSavedPlan } from './saved-plan-file.js'
import { uncheckedNote } from '../../secrets/state.js'
import { setAsideUntracked, type UntrackedSecret } from '../../plan/untracked.js'

export interface PlanOptions extends PlanInputs {
  format: Format
  mode: 'plan' | 'drift'
  detailedExitcode?: boolean
  /** Save the plan for `apply --plan`. */
  out?: string
  /** Text format: only the summary line. */
  quiet?: boolean
}

/** `scansync plan` and `scansync drift`. */
export async function runPlan(options: PlanOptions, given: Io): Promise<number> {
  const io = withRedaction(given)
  let savedTo: string | undefined
  let outIsState = false
  const code = await guard(io, { debug: options.debug }, async () => {
    if (options.out) {
      await prepareOutputFile('--out', options.out, io.cwd)
      // Refused before any work; said once (the file is the state, not an earlier plan: notSaved).
      outIsState = isStateFile(options.out, statePathFor(options, io), io.cwd)
      if (outIsState) throw new UsageError(`--out ${options.out} is the secrets state this plan reads: saving the plan there would replace its records; name another file, e.g. --out release.plan.json`)
    }
    const prepared = await preparePlan({ ...options, command: options.mode, missingIsDrift: options.mode === 'drift' }, io)
    if (!prepared) return EXIT.error
    try {
      let { plan } = prepared.result
      if (options.mode === 'drift') {
        const setAside = setAsideUntracked(plan)
        plan = setAside.plan
        // With a state of another key, the note below says why (an apply would not record them).
        if (setAside.untracked.length > 0 && !prepared.ledger.context.foreignKey) noteUntracked(setAside.untracked, prepared.statePath, io)
      }
      if (options.unmanaged) {
        // Before the names are looked at and anything prints: any listed resource's value may quote them.
        learnLiveSecrets(io.redaction, listedSecrets(prepared.identified))
        plan = { ...plan, unmanaged: undeclared(prepared.identified, options.kinds, io.redaction.holds, prepared.ledger.context, options.ids) }
      }
      // Built before anything is printed: a plan that cannot be saved is refused whole.
      const saved = options.out ? savedPlanDocument(prepared, options.paths, io, options.out, options.state) : undefined
      const { violations } = prepared
      const rendered = renderPlan(plan, options.format, { color: colorEnabled(io.stdout, io.env), mode: options.mode, redact: io.redaction.redact, holds: io.redaction.holds, annotationFile: annotationPaths(io.env.GITHUB_WORKSPACE, io.cwd) }, violations)
      io.stdout.write(options.quiet && options.format === 'text' ? summaryLine(rendered) : rendered)
      // Markdown too: its comment holds the first of them, and says the job's log has them all.
      if (violations && (options.format === 'text' || options.format === 'markdown')) io.stderr.write(violationsText(violations))
      const unchecked = uncheckedNote(prepared.ledger.context, prepared.ledger.keys, prepared.statePath)
      if (unchecked) line(io.stderr, unchecked)
      // An error-level violation fails the run, and its plan is not saved for apply --plan.
      if (violations && hasErrors(violations)) return EXIT.error
      if (options.out && saved) {
        await writeSavedPlan(options.out, saved, io)
        savedTo = options.out
        line(io.stderr, `Saved the plan to ${options.out}; apply it with: scansync apply --plan ${options.out}`)
      }
      // What no file declares is drift too: someone made it by hand, and nobody reviewed it.
      const changes = plan.changes.length > 0 || (plan.unmanaged?.length ?? 0) > 0 || (plan.missing?.length ?? 0) > 0
      if (options.mode === 'drift') return changes ? EXIT.changes : EXIT.ok
      return changes && options.detailedExitcode ? EXIT.changes : EXIT.ok
    } finally {
      await prepared.session.client.close()
    }
  })
  if (options.out && savedTo === undefined && !outIsState) line(io.stderr, notSaved(options.out, io.cwd))
  return code
}

/**
 * Said when `plan --out` ends without saving (an error, a policy of level error): a file an
 * earlier run saved there is not this plan, and `apply --plan` would apply it as reviewed.
 */
function notSaved(out: string, cwd: string): string {
  let earlier = false
  try {
    earlier = statSync(resolve(cwd, out), { throwIfNoEntry: false })?.isFile() === true
  } catch {
    // A path that cannot be looked at (its error was said): nothing is known of an earlier plan.
  }
  return earlier ? `The plan was not saved: ${out} still holds an earlier plan, not this one.` : `The plan was not saved to ${out}.`
}

function noteUntracked(untracked: UntrackedSecret[], statePath: string, io: Io): void {
  const first = untracked.slice(0, 5).map((u) => `${u.kind} ${u.id} ${u.path}`).join(', ')
  const more = untracked.length > 5 ? ` and ${untracked.length - 5} more` : ''
  line(
    io.stderr,
    `Note: ${untracked.length} secret ${untracked.length === 1 ? 'field' : 'fields'} the service hides could not be checked (${first}${more}): ` +
      `the secrets state ${statePath} has no record of ${untracked.length === 1 ? 'it' : 'them'}. Run scansync apply once, and keep the state file where drift runs.`,
  )
}

/** The last line of a text rendering: its summary. */
export const summaryLine = (rendered: string): string => rendered.trimEnd().split('\n').at(-1) + '\n'
