import { colorEnabled, Io, line, type RedactedIo, withRedaction } from '../../core/io.js'
import { EXIT } from '../../core/exit-codes.js'
import { ScansyncError } from '../../core/errors.js'
import { startProgress } from '../progress.js'
import { confirmApply } from '../../apply/confirm.js'
import { readAfterConfirmation } from '../../apply/refresh.js'
import { reportOf, Tally } from '../../apply/report.js'
import { passesPolicies, passesPoliciesAgain, refusedByPolicy, violationsAfterRead } from '../../apply/policy-gate.js'
import { CREATION_WAIT_MS, guardCreations } from '../../apply/creation-guard.js'
import { STALE_LOCK_MS } from '../../secrets/lock.js'
import { checkStateWritable, quitAtOnce, recordLanded, sendChanges } from '../../apply/send.js'
import { checkMaxChanges } from '../../plan/safety.js'
import { annotationPaths, renderApplyReport, renderPlan } from '../../render/index.js'
import { readSecretsState, uncheckedNote, writeSecretsState } from '../../secrets/state.js'
import { fromConfiguration, fromSavedPlan, type Work, type WorkOptions } from './apply-work.js'
import { applyExitCode, guard, onInterrupts, timeoutHint } from './errors.js'
import { summaryLine } from './plan.js'
import { writeFailure } from '../../core/whole-file.js'

export interface ApplyOptions extends WorkOptions {
  autoApprove?: boolean
  maxChanges?: number
  /** Text format: no plan before applying, only the outcome and the summary. */
  quiet?: boolean
}

/** `scansync apply`: plan (or read a saved plan), confirm, read again, send, report. */
export async function runApply(options: ApplyOptions, given: Io): Promise<number> {
  const io = withRedaction(given)
  let sending = false
  return guard(io, { debug: options.debug, nothingSent: () => !sending }, async () => {
    const untilSending = interruptedBeforeSending(io)
    try {
      const work = options.plan ? await fromSavedPlan(options, io) : await fromConfiguration(options, io)
      if (!work) return EXIT.error
      try {
        return await applyWork(work, options, io, () => {
          sending = true
          untilSending()
        })
      } finally {
        await work.session.client.close()
      }
    } finally {
      untilSending()
    }
  })
}

/**
 * Until the first write, an interrupt (Ctrl-C, or SIGTERM from a CI runner cancelling the job)
 * ends the apply at once with exit 130, saying that nothing was sent: only reads were in flight.
 * Returns what stops listening (the send phase then listens in its own way).
 */
function interruptedBeforeSending(io: RedactedIo, exit: (code: number) => never = (code) => process.exit(code)): () => void {
  const stop = io.onInterrupt?.(() => {
    line(io.stderr, '\nInterrupted before anything was sent: nothing was sent.')
    exit(EXIT.interrupted)
  })
  return stop ?? (() => undefined)
}

async function applyWork(work: Work, options: ApplyOptions, io: RedactedIo, untilSending: () => void): Promise<number> {
  const color = colorEnabled(io.stdout, io.env)
  let { plan, ready, violations } = work
  // A saved plan names its files from where plan ran.
  const positionsFrom = work.positionsFrom ?? io.cwd
  const annotationFile = annotationPaths(io.env.GITHUB_WORKSPACE, positionsFrom)
  const refused = (): number => {
    // A document for the scripts that read one: every change not applied, and the violations.
    if (options.format === 'json' || options.format === 'markdown') io.stdout.write(renderApplyReport(reportOf(plan, refusedByPolicy(plan), false), options.format, { color, redact: io.redaction.redact, holds: io.redaction.holds, annotationFile }, violations))
    return EXIT.error
  }
  /** The rules again on the fresh read the requests are built from (policy-gate.ts, violationsAfterRead); false: refused. */
  const passesAgain = (): boolean => {
    const earlier = violations
    violations = violationsAfterRead(work.rules, earlier, ready, io.redaction.holds)
    return passesPoliciesAgain(earlier, violations, options.format, io, positionsFrom)
  }
  /** A state from before key ids is re-keyed by the next apply, even one with nothing to send (or nothing left after its read again). */
  const rekeyLegacyState = async (): Promise<void> => {
    if (work.ledger.status === 'legacy') await writeSecretsState(work.statePath, work.stateUpdate(), io.redaction.file).catch((e) => line(io.stderr, `Note: the secrets state could not be re-keyed (${writeFailure(e)})`))
  }
  /** Every change found already as planned by a read made after the plan: nothing to send, reported as such. */
  const nothingLeft = async (): Promise<number> => {
    await rekeyLegacyState()
    io.stdout.write(renderApplyReport(reportOf(plan, [], false), options.format, { color, redact: io.redaction.redact, holds: io.redaction.holds, annotationFile }, violations))
    return EXIT.ok
  }
  if (!passesPolicies(violations, options.format, io, positionsFrom)) return refused()
  if (options.format === 'text') {
    const rendered = renderPlan(plan, 'text', { color, mode: 'plan', redact: io.redaction.redact, holds: io.redaction.holds })
    // Quiet shows no plan, unless it is about to ask: nobody should confirm a plan they did not see.
    io.stdout.write(!options.quiet || !options.autoApprove ? rendered : plan.changes.length === 0 ? summaryLine(rendered) : '')
  }
  const unchecked = uncheckedNote(work.ledger.context, work.ledger.keys, work.statePath)
  if (unchecked) line(io.stderr, unchecked)
  if (plan.changes.length === 0) {
    await rekeyLegacyState()
    if (options.format !== 'text') io.stdout.write(renderApplyReport(reportOf(plan, [], false), options.format, { color, redact: io.redaction.redact, holds: io.redaction.holds, annotationFile }, violations))
    return EXIT.ok
  }
  checkMaxChanges(plan, options.maxChanges)
  await checkStateWritable(ready, work.statePath)
  if (!options.autoApprove) {
    // Nobody should confirm a plan they did not see: in a document format stdout holds the
    // report, so the plan the question is about is shown on stderr, where the question is asked.
    if (options.format !== 'text' && io.stdinIsTTY && io.prompt) io.stderr.write(renderPlan(plan, 'text', { color: colorEnabled(io.stderr, io.env), mode: 'plan', redact: io.redaction.redact, holds: io.redaction.holds }))
    if (!(await confirmApply(plan, io))) return EXIT.error
    // The secrets state too: another apply sharing it may have sent (and recorded) a secret meanwhile.
    work.ledger.refresh(await readSecretsState(work.statePath))
    const fresh = await readAfterConfirmation(plan, ready, work.session.client, work.ledger.context, 'confirmed', work.configuration)
    if (fresh.note) line(io.stderr, fresh.note)
    plan = fresh.plan
    ready = fresh.ready
    if (ready.length === 0) return await nothingLeft()
    if (!passesAgain()) return refused()
  }

  // Still before any write: an interrupt while it waits for another run ends it, nothing sent.
  // Said at once: the wait may last minutes, and a silent one looks like a hang. With how long, and
  // what a lock no apply holds any more means: right after an apply was killed (a cancelled job),
  // its lock is still fresh, and the re-run waited up to 30 s, told only that another apply was
  // creating targets, when none ran.
  const waitingWords = (lock: string) =>
    `Waiting for another apply of this configuration, which is creating targets (${lock})… ` +
    `(at most ${CREATION_WAIT_MS / 1000} s; if no other apply runs, the lock was left by one that died, and is taken over within ${STALE_LOCK_MS / 1000} s)`
  const { release: releaseCreations, waited } = await guardCreations(ready, work.session.client, work.statePath, (lock) => line(io.stderr, waitingWords(lock)))
  if (waited) {
    // The apply that held the lock sent its writes meanwhile (and people kept editing): a body
    // filled from the read made before the wait would put back what was written during it to a
    // field this YAML does not declare. Read again, after the wait, as after a confirmation.
    let fresh
    try {
      work.ledger.refresh(await readSecretsState(work.statePath))
      fresh = await readAfterConfirmation(plan, ready, work.session.client, work.ledger.context, 'waited', work.configuration)
    } catch (error) {
      releaseCreations()
      throw error
    }
    if (fresh.note) line(io.stderr, fresh.note)
    plan = fresh.plan
    ready = fresh.ready
    if (ready.length === 0) {
      releaseCreations()
      return await nothingLeft()
    }
    if (!passesAgain()) {
      releaseCreations()
      return refused()
    }
  }
  untilSending()
  const controller = new AbortController()
  const send = { ...work, client: work.session.client, parallelism: work.session.parallelism, signal: controller.signal, known: new Tally(ready.length), redactFile: io.redaction.file }
  let landed: Promise<void> | undefined
  const stopListening = onInterrupts(io, {
    first() {
      line(io.stderr, '\nInterrupted: no new requests will start; waiting for those in flight (press Ctrl-C again to quit at once).')
      controller.abort()
      landed = recordLanded(send)
    },
    second: () => line(io.stderr, quitAtOnce(send)),
  })
  let sent
  try {
    const progress = await startProgress(io.stderr, ready.length, 'Applying', { env: io.env })
    try {
      // The changes are sent; a lock left by an apply that died holds the state up to 30 s: said, not silent.
      const onStateWait = (lock: string) => {
        progress.stop()
        line(io.stderr, `Waiting for the secrets state's lock (${lock}) to record what was sent… (another apply holds it, or one that died left it: taken over within ${STALE_LOCK_MS / 1000} s)`)
      }
      sent = await sendChanges(plan, ready, { ...send, onResult: () => progress.tick(), onStateWait, landed: () => landed })
    } finally {
      progress.stop()
    }
  } finally {
    stopListening()
    releaseCreations()
  }
  io.stdout.write(renderApplyReport(sent.report, options.format, { color, redact: io.redaction.redact, holds: io.redaction.holds, annotationFile }, violations))
  timeoutHint(io, sent.report.results.flatMap((result) => [result.error ?? '', ...(result.warnings ?? [])]))
  if (sent.stateNote) line(io.stderr, sent.stateNote)
  if (sent.stateProblem) throw new ScansyncError(sent.stateProblem)
  return applyExitCode(sent.report)
}
