import { colorEnabled, Io, line, type RedactedIo, withRedaction } from '../../core/io.js'
import { EXIT } from '../../core/exit-codes.js'
import { ScansyncError, UsageError } from '../../core/errors.js'
import { startProgress } from '../progress.js'
import { executeChanges } from '../../apply/executor.js'
import { declaredSecretValues, pendingOf, plannedFrom, readFresh } from '../../apply/refresh.js'
import { Progress, reportOf } from '../../apply/report.js'
import type { Plan } from '../../plan/model.js'
import { checkMaxChanges } from '../../plan/safety.js'
import { decodeSavedPlan, sameService } from '../../plan/saved-plan.js'
import { doneNote, freshnessProblem, plannedKey, type Freshness, type Ready } from '../../plan/staleness.js'
import { renderApplyReport, renderPlan, type Format } from '../../render/index.js'
import { secretValues } from '../../secrets/redact.js'
import { openLedger, readSecretsState, stateKeys, uncheckedNote, writeSecretsState, writeSecretsStateSync, type SecretsLedger, type StateUpdate } from '../../secrets/state.js'
import { guard, onInterrupts } from './errors.js'
import { summaryLine } from './plan.js'
import { PlanInputs, preparePlan, statePathFor } from './prepare-plan.js'
import { readSavedPlan } from './saved-plan-file.js'
import { openSession, readToken, type Session } from './session.js'

export interface ApplyOptions extends PlanInputs {
  format: Format
  autoApprove?: boolean
  maxChanges?: number
  /** A saved plan to apply instead of planning now. */
  plan?: string
  /** Text format: no plan before applying, only the outcome and the summary. */
  quiet?: boolean
}

/** What is about to be applied: the plan shown, and each changing resource with its latest read. */
interface Work {
  plan: Plan
  ready: Ready[]
  when: 'saved' | 'confirmed'
  session: Session
  ledger: SecretsLedger
  statePath: string
  stateUpdate(): StateUpdate
}

/** `scansync apply`: plan (or read a saved plan), confirm, read again, send, report. */
export async function runApply(options: ApplyOptions, given: Io): Promise<number> {
  const io = withRedaction(given)
  return guard(io, { debug: options.debug }, async () => {
    const work = options.plan ? await fromSavedPlan(options, io) : await fromConfiguration(options, io)
    if (!work) return EXIT.error
    try {
      return await applyWork(work, options, io)
    } finally {
      await work.session.client.close()
    }
  })
}

async function fromConfiguration(options: ApplyOptions, io: RedactedIo): Promise<Work | undefined> {
  const prepared = await preparePlan(options, io)
  if (!prepared) return undefined
  const { plan, changed } = prepared.result
  const stateUpdate = () => prepared.ledger.update(declaredSecretValues(prepared.resources))
  return { plan, ready: plannedFrom(changed, plan.changes), when: 'confirmed', session: prepared.session, ledger: prepared.ledger, statePath: prepared.statePath, stateUpdate }
}

/** A saved plan, checked (keyed checksum, service URL) and re-read: refused whole if any resource changed since. */
async function fromSavedPlan(options: ApplyOptions, io: RedactedIo): Promise<Work | undefined> {
  // A selection would silently apply more (or other) than asked for: the plan is applied whole.
  if (options.paths.length > 0 || (options.kinds?.length ?? 0) > 0 || (options.ids?.length ?? 0) > 0) {
    throw new UsageError('--plan applies the saved plan whole: leave out configuration paths, --kind and --id (select when making the plan)')
  }
  const token = readToken(io)
  const keys = stateKeys(io.env, token)
  const saved = decodeSavedPlan(await readSavedPlan(options.plan!, io), { key: keys.key, env: io.env, file: options.plan! })
  const desired = saved.resources.map((r) => r.desired)
  io.redaction.add(secretValues(desired))
  // The requests go to the service named here, never to the one the file names.
  const apiUrl = options.apiUrl ?? io.env.SCANSYNC_API_URL
  if (!apiUrl) throw new UsageError('no service URL: pass --api-url URL or set SCANSYNC_API_URL (a saved plan is only checked against the URL it names, never sent to it)')
  if (saved.apiUrl && !sameService(saved.apiUrl, apiUrl)) throw new UsageError(`the saved plan was made against ${saved.apiUrl}, not ${apiUrl}; make a new plan for this service`)
  const statePath = statePathFor({ paths: saved.paths, state: options.state }, io)
  const ledger = openLedger(await readSecretsState(statePath), keys)
  const session = openSession({ ...options, apiUrl }, io)
  try {
    const freshness = refused(await readFresh(saved.resources, session.client, ledger.context), 'saved', io)
    const plan = onlyReady(saved.plan, freshness.ready)
    return { plan, ready: freshness.ready, when: 'saved', session, ledger, statePath, stateUpdate: () => ledger.update(declaredSecretValues(desired)) }
  } catch (error) {
    await session.client.close()
    throw error
  }
}

/** Throws when the fresh read makes the plan stale; says which resources are already as planned. */
function refused(freshness: Freshness, when: 'saved' | 'confirmed', io: Io): Freshness {
  const problem = freshnessProblem(freshness, when)
  if (problem) throw new ScansyncError(problem)
  const note = doneNote(freshness, when)
  if (note) line(io.stderr, note)
  return freshness
}

/** The plan, without the resources found already as planned. */
function onlyReady(plan: Plan, ready: readonly Ready[]): Plan {
  const keep = new Set(ready.map((r) => plannedKey(r.planned.desired)))
  const changes = plan.changes.filter((change) => keep.has(plannedKey(change)))
  const create = changes.filter((change) => change.action === 'create').length
  return { changes, summary: { ...(create > 0 ? { create } : {}), change: changes.length - create, unchanged: plan.summary.unchanged + plan.changes.length - changes.length } }
}

async function applyWork(work: Work, options: ApplyOptions, io: RedactedIo): Promise<number> {
  const color = colorEnabled(io.stdout, io.env)
  let { plan, ready } = work
  if (options.format === 'text') {
    const rendered = renderPlan(plan, 'text', { color, mode: 'plan' })
    // Quiet shows no plan, unless it is about to ask: nobody should confirm a plan they did not see.
    const showPlan = !options.quiet || !options.autoApprove
    io.stdout.write(showPlan ? rendered : plan.changes.length === 0 ? summaryLine(rendered) : '')
  }
  const unchecked = uncheckedNote(work.ledger.context, work.ledger.keys, work.statePath)
  if (unchecked) line(io.stderr, unchecked)
  if (plan.changes.length === 0) {
    if (options.format !== 'text') io.stdout.write(renderApplyReport(reportOf(plan, [], false), options.format, { color }))
    return EXIT.ok
  }
  checkMaxChanges(plan, options.maxChanges)
  if (!options.autoApprove) {
    if (!(await confirmed(plan, io))) return EXIT.error
    // Whatever a request fills in from live comes from a read made after the confirmation.
    ready = refused(await readFresh(ready.map((r) => r.planned), work.session.client, work.ledger.context), work.when === 'saved' ? 'confirmed' : work.when, io).ready
    plan = onlyReady(plan, ready)
    if (ready.length === 0) return EXIT.ok
  }

  const pending = ready.map(pendingOf)
  const controller = new AbortController()
  const known = new Progress(pending.length)
  const stopListening = onInterrupts(io, {
    first() {
      line(io.stderr, '\nInterrupted: no new requests will start; waiting for those in flight (press Ctrl-C again to quit at once).')
      controller.abort()
    },
    second() {
      // Synchronously: nothing can be awaited any more. What landed is recorded.
      let stateWords = ''
      try {
        writeSecretsStateSync(work.statePath, work.stateUpdate(), io.redaction.file)
      } catch (error) {
        stateWords = ` The secrets state could not be written to ${work.statePath} (${(error as NodeJS.ErrnoException).code ?? error}).`
      }
      line(io.stderr, `\nQuit at once: ${known.words()}; run scansync plan to see what is left.${stateWords}`)
    },
  })
  const progress = await startProgress(io.stderr, pending.length, 'Applying')
  let outcome
  try {
    outcome = await executeChanges(pending, work.session.client, {
      parallelism: work.session.parallelism,
      secrets: work.ledger,
      signal: controller.signal,
      onStart: (change) => known.start(change),
      onResult: (result) => {
        known.settle(result)
        progress.tick()
      },
    })
  } finally {
    progress.stop()
    stopListening()
  }
  // Written even after failures and interrupts: it records what did land. The report comes
  // first whatever happens to the file: it is the record of what was sent.
  const report = reportOf(plan, outcome.results, outcome.interrupted)
  let stateError: unknown
  try {
    await writeSecretsState(work.statePath, work.stateUpdate(), io.redaction.file)
  } catch (error) {
    stateError = error
  }
  io.stdout.write(renderApplyReport(report, options.format, { color }))
  if (stateError !== undefined) {
    const reason = (stateError as NodeJS.ErrnoException).code ?? (stateError instanceof Error ? stateError.message : String(stateError))
    throw new ScansyncError(
      `the changes above were sent, but the secrets state could not be written to ${work.statePath} (${reason}); secrets the service hides will be planned again as "not yet tracked"`,
    )
  }
  if (outcome.interrupted) return EXIT.interrupted
  return report.summary.failed > 0 || report.summary.not_applied > 0 ? EXIT.error : EXIT.ok
}

async function confirmed(plan: Plan, io: Io): Promise<boolean> {
  if (!io.stdinIsTTY || !io.prompt) {
    throw new UsageError('refusing to apply without confirmation: there is no terminal to ask on; review the plan and pass --auto-approve')
  }
  const n = plan.changes.length
  const answer = await io.prompt(`\nApply ${n} ${n === 1 ? 'change' : 'changes'}? Only "yes" is accepted: `)
  if (answer.trim() === 'yes') return true
  line(io.stderr, 'Apply cancelled; nothing was sent.')
  return false
}
