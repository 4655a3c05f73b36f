import { colorEnabled, Io, line, type RedactedIo, withRedaction } from '../../core/io.js'
import { EXIT } from '../../core/exit-codes.js'
import { ScansyncError, UsageError } from '../../core/errors.js'
import { startProgress } from '../progress.js'
import { declaredSecretValues, plannedFrom, stillToSend } from '../../apply/refresh.js'
import { reportOf, Tally } from '../../apply/report.js'
import { quitAtOnce, sendChanges } from '../../apply/send.js'
import type { Plan } from '../../plan/model.js'
import { checkMaxChanges } from '../../plan/safety.js'
import { decodeSavedPlan, sameService } from '../../plan/saved-plan.js'
import { planOfReady, type Ready } from '../../plan/staleness.js'
import { renderApplyReport, renderPlan, violationsGithub, violationsText, type Format } from '../../render/index.js'
import { hasErrors } from '../../plan/policies.js'
import { learnSecrets } from '../../secrets/known.js'
import { openLedger, readSecretsState, stateKeys, uncheckedNote, writeSecretsState, type SecretsLedger, type StateUpdate } from '../../secrets/state.js'
import { applyExitCode, guard, onInterrupts } from './errors.js'
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
  const { violations } = prepared
  if (violations && violations.length > 0) {
    if (options.format === 'github') io.stdout.write(violationsGithub(violations))
    else io.stderr.write(violationsText(violations))
    if (hasErrors(violations)) {
      line(io.stderr, 'The configuration breaks a policy of level error; nothing was sent.')
      await prepared.session.client.close()
      return undefined
    }
  }
  const { plan, changed } = prepared.result
  const stateUpdate = () => prepared.ledger.update(declaredSecretValues(prepared.resources))
  return { plan, ready: plannedFrom(changed, plan.changes), session: prepared.session, ledger: prepared.ledger, statePath: prepared.statePath, stateUpdate }
}

/** A saved plan, checked (keyed checksum, service URL) and read again: refused whole if any resource changed since. */
async function fromSavedPlan(options: ApplyOptions, io: RedactedIo): Promise<Work> {
  // A selection would silently apply more (or other) than asked for: the plan is applied whole.
  if (options.paths.length > 0 || (options.kinds?.length ?? 0) > 0 || (options.ids?.length ?? 0) > 0) {
    throw new UsageError('--plan applies the saved plan whole: leave out configuration paths, --kind and --id (select when making the plan)')
  }
  const token = readToken(io)
  const keys = stateKeys(io.env, token)
  const saved = decodeSavedPlan(await readSavedPlan(options.plan!, io), { key: keys.key, env: io.env, file: options.plan! })
  const desired = saved.resources.map((r) => r.desired)
  learnSecrets(io.redaction, desired)
  io.redaction.add([keys.key])
  // The requests go to the service named here, never to the one the file names.
  const apiUrl = options.apiUrl ?? io.env.SCANSYNC_API_URL
  if (!apiUrl) throw new UsageError('no service URL: pass --api-url URL or set SCANSYNC_API_URL (a saved plan is only checked against the URL it names, never sent to it)')
  if (saved.apiUrl && !sameService(saved.apiUrl, apiUrl)) throw new UsageError(`the saved plan was made against ${saved.apiUrl}, not ${apiUrl}; make a new plan for this service`)
  const statePath = statePathFor({ paths: saved.paths, state: options.state }, io)
  const ledger = openLedger(await readSecretsState(statePath), keys)
  const session = openSession({ ...options, apiUrl }, io)
  try {
    const { ready, note } = await stillToSend(saved.resources, session.client, ledger.context, 'saved')
    if (note) line(io.stderr, note)
    return { plan: planOfReady(saved.plan, ready), ready, session, ledger, statePath, stateUpdate: () => ledger.update(declaredSecretValues(desired)) }
  } catch (error) {
    await session.client.close()
    throw error
  }
}

async function applyWork(work: Work, options: ApplyOptions, io: RedactedIo): Promise<number> {
  const color = colorEnabled(io.stdout, io.env)
  let { plan, ready } = work
  if (options.format === 'text') {
    const rendered = renderPlan(plan, 'text', { color, mode: 'plan' })
    // Quiet shows no plan, unless it is about to ask: nobody should confirm a plan they did not see.
    io.stdout.write(!options.quiet || !options.autoApprove ? rendered : plan.changes.length === 0 ? summaryLine(rendered) : '')
  }
  const unchecked = uncheckedNote(work.ledger.context, work.ledger.keys, work.statePath)
  if (unchecked) line(io.stderr, unchecked)
  if (plan.changes.length === 0) {
    // A state from before key ids is re-keyed by the next apply, even one with nothing to send.
    if (work.ledger.status === 'legacy') await writeSecretsState(work.statePath, work.stateUpdate(), io.redaction.file).catch((e) => line(io.stderr, `Note: the secrets state could not be re-keyed (${e.code ?? e})`))
    if (options.format !== 'text') io.stdout.write(renderApplyReport(reportOf(plan, [], false), options.format, { color }))
    return EXIT.ok
  }
  checkMaxChanges(plan, options.maxChanges)
  if (!options.autoApprove) {
    if (!(await confirmed(plan, io))) return EXIT.error
    // Whatever a request fills in from live comes from a read made after the confirmation.
    const fresh = await stillToSend(ready.map((r) => r.planned), work.session.client, work.ledger.context, 'confirmed')
    if (fresh.note) line(io.stderr, fresh.note)
    ready = fresh.ready
    plan = planOfReady(plan, ready)
    if (ready.length === 0) return EXIT.ok
  }

  const controller = new AbortController()
  const send = { ...work, client: work.session.client, parallelism: work.session.parallelism, signal: controller.signal, known: new Tally(ready.length), redactFile: io.redaction.file }
  const stopListening = onInterrupts(io, {
    first() {
      line(io.stderr, '\nInterrupted: no new requests will start; waiting for those in flight (press Ctrl-C again to quit at once).')
      controller.abort()
    },
    second: () => line(io.stderr, quitAtOnce(send)),
  })
  const progress = await startProgress(io.stderr, ready.length, 'Applying')
  let sent
  try {
    sent = await sendChanges(plan, ready, { ...send, onResult: () => progress.tick() })
  } finally {
    progress.stop()
    stopListening()
  }
  io.stdout.write(renderApplyReport(sent.report, options.format, { color }))
  if (sent.stateProblem) throw new ScansyncError(sent.stateProblem)
  return applyExitCode(sent.report)
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
