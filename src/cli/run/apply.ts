import { basePath } from '../../client/base-url.js'
import { colorEnabled, Io, line } from '../../core/io.js'
import { EXIT } from '../../core/exit-codes.js'
import { startProgress } from '../progress.js'
import { ScansyncError, UsageError } from '../../core/errors.js'
import type { SecretsState } from '../../schema/generated.js'
import { executeChanges, type PendingChange } from '../../apply/executor.js'
import { fingerprint, liveKey, type Comparison } from '../../plan/build-plan.js'
import type { ApplyReport, Plan } from '../../plan/model.js'
import { readLive } from '../../live/read.js'
import { renderApplyReport, renderPlan, violationsGithub, violationsText, type Format } from '../../render/index.js'
import { hasErrors } from '../../plan/policies.js'
import { KINDS } from '../../resources/index.js'
import { makeRedactor, secretValues } from '../../secrets/redact.js'
import { readSecretsState, writeSecretsState, writeSecretsStateSync } from '../../secrets/state.js'
import { guard } from './errors.js'
import { summaryLine } from './plan.js'
import { PlanInputs, preparePlan, statePathFor } from './prepare-plan.js'
import { readSavedPlan, resolveBody, restoreDesired, savedChanges, savedPlanModel } from '../../plan/saved-plan.js'
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

/** `scansync apply`: plan (or read a saved plan), confirm, send, report. */
export async function runApply(options: ApplyOptions, io: Io): Promise<number> {
  let redact: ((text: string) => string) | undefined
  return guard(io, { debug: options.debug, redact: (text) => (redact ? redact(text) : text) }, async () => {
    const work = options.plan ? await fromSavedPlan(options, io, (r) => (redact = r)) : await fromConfiguration(options, io, (r) => (redact = r))
    if (!work) return EXIT.error
    try {
      return await applyWork(work, options, io)
    } finally {
      await work.session.client.close()
    }
  })
}

interface Work {
  plan: Plan
  pending: PendingChange[]
  session: Session
  state: SecretsState
  statePath: string
}

async function fromConfiguration(options: ApplyOptions, io: Io, onRedactor: (r: (text: string) => string) => void): Promise<Work | undefined> {
  const prepared = await preparePlan(options, io, onRedactor)
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
  const pending = changed.map((comparison, i) => pendingFor(comparison, plan.changes[i]))
  return { plan, pending, session: prepared.session, state: prepared.state, statePath: prepared.statePath }
}

const pendingFor = (comparison: Comparison, change: Plan['changes'][number]): PendingChange => ({
  change,
  kind: comparison.kind,
  desired: comparison.desired,
  request: comparison.kind.buildRequest({ desired: comparison.desired, live: comparison.live, raw: comparison.raw, units: comparison.units }),
})

/** A saved plan, re-checked against the live service: refused whole if any resource changed since. */
async function fromSavedPlan(options: ApplyOptions, io: Io, onRedactor: (r: (text: string) => string) => void): Promise<Work | undefined> {
  // A selection would silently apply more (or other) than asked for: the plan is applied whole.
  if (options.paths.length > 0 || (options.kinds?.length ?? 0) > 0 || (options.ids?.length ?? 0) > 0) {
    throw new UsageError('--plan applies the saved plan whole: leave out configuration paths, --kind and --id (select when making the plan)')
  }
  const saved = await readSavedPlan(options.plan!, io)
  const desired = saved.resources.map((resource) => restoreDesired(resource, io.env))
  const token = readToken(io)
  onRedactor(makeRedactor([...secretValues(desired), token]))
  const apiUrl = options.apiUrl ?? io.env.SCANSYNC_API_URL
  if (saved.api_url && apiUrl && !sameService(saved.api_url, apiUrl)) {
    throw new UsageError(`the saved plan was made against ${saved.api_url}, not ${apiUrl}; make a new plan for this service`)
  }
  const statePath = statePathFor({ paths: saved.paths, state: options.state }, io)
  const state = await readSecretsState(statePath)
  const session = openSession({ ...options, apiUrl: apiUrl ?? saved.api_url }, io, makeRedactor([...secretValues(desired), token]))
  try {
    const stale: string[] = []
    const live = new Map<string, Record<string, unknown>>()
    for (const kindName of ['target', 'asset', 'agent'] as const) {
      const ids = desired.filter((d) => d.kind === kindName).map((d) => d.id)
      if (ids.length === 0) continue
      for (const [id, body] of await readLive(KINDS[kindName], ids, session.client)) live.set(liveKey(kindName, id), body)
    }
    const changes = savedChanges(saved)
    const pending = saved.resources.map((resource, i): PendingChange => {
      const kind = KINDS[desired[i].kind]
      const now = fingerprint(kind, desired[i].fields, kind.project(live.get(liveKey(kind.name, resource.id))!))
      if (now !== resource.fingerprint) stale.push(`${resource.kind} ${resource.id}`)
      const change = changes.find((c) => c.kind === resource.kind && c.id === resource.id)!
      return { change, kind, desired: desired[i], request: { ...resource.request, body: resolveBody(resource.request.body, io.env) } }
    })
    if (stale.length > 0) {
      throw new ScansyncError(
        `the saved plan is stale: ${stale.join(', ')} changed on the service since it was made; nothing was sent. Run scansync plan --out again.`,
      )
    }
    return { plan: savedPlanModel(saved), pending, session, state, statePath }
  } catch (error) {
    await session.client.close()
    throw error
  }
}

async function applyWork(work: Work, options: ApplyOptions, io: Io): Promise<number> {
  const color = colorEnabled(io.stdout, io.env)
  const { plan } = work
  if (options.format === 'text') {
    const rendered = renderPlan(plan, 'text', { color, mode: 'plan' })
    // Quiet shows no plan, unless it is about to ask: nobody should confirm a plan they did not see.
    const showPlan = !options.quiet || !options.autoApprove
    io.stdout.write(showPlan ? rendered : plan.changes.length === 0 ? summaryLine(rendered) : '')
  }
  if (plan.changes.length === 0) {
    if (options.format !== 'text') io.stdout.write(renderApplyReport(emptyReport(plan), options.format, { color }))
    return EXIT.ok
  }
  if (options.maxChanges !== undefined && plan.changes.length > options.maxChanges) {
    throw new UsageError(`the plan has ${plan.changes.length} changes, more than --max-changes ${options.maxChanges}; nothing was sent`)
  }
  if (!(await confirmed(plan, options, io))) return EXIT.error

  const controller = new AbortController()
  let presses = 0
  // What is known at any moment, for a second Ctrl-C.
  const started = new Set<string>()
  const settled = new Map<string, string>()
  const keyOf = (change: { kind: string; id: string }) => `${change.kind}/${change.id}`
  const stopListening = io.onInterrupt?.(() => {
    presses++
    if (presses === 1) {
      line(io.stderr, '\nInterrupted: no new requests will start; waiting for those in flight (press Ctrl-C again to quit at once).')
      controller.abort()
    } else {
      quitAtOnce(work, io, { total: work.pending.length, started, settled })
    }
  })
  const progress = await startProgress(io.stderr, work.pending.length, 'Applying')
  let outcome
  try {
    outcome = await executeChanges(work.pending, work.session.client, {
      parallelism: work.session.parallelism,
      token: work.session.token,
      state: work.state,
      signal: controller.signal,
      onStart: (change) => started.add(keyOf(change)),
      onResult: (result) => {
        settled.set(keyOf(result), result.result)
        progress.tick()
      },
    })
  } finally {
    progress.stop()
    stopListening?.()
  }
  // Written even after failures and interrupts: it records what did land. The report comes
  // first whatever happens to the file: it is the record of what was sent.
  const report = reportOf(plan, outcome.results, outcome.interrupted)
  let stateError: unknown
  try {
    await writeSecretsState(work.statePath, work.state)
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

/**
 * The second Ctrl-C: exits 130 now, without waiting for the requests in flight. What is known is
 * said in one line, and the secrets of what landed are recorded (synchronously: nothing can be
 * awaited any more).
 */
function quitAtOnce(work: Work, io: Io, known: { total: number; started: Set<string>; settled: Map<string, string> }): never {
  const count = (outcome: string) => [...known.settled.values()].filter((r) => r === outcome).length
  const applied = count('applied')
  const failed = count('failed')
  const inFlight = [...known.started].filter((key) => !known.settled.has(key)).length
  const notSent = known.total - applied - failed - inFlight
  let stateWords = ''
  try {
    writeSecretsStateSync(work.statePath, work.state)
  } catch (error) {
    stateWords = ` The secrets state could not be written to ${work.statePath} (${(error as NodeJS.ErrnoException).code ?? error}).`
  }
  line(
    io.stderr,
    `\nQuit at once: ${applied} applied, ${failed} failed, ${inFlight} in flight (they may or may not have been applied), ${notSent} not sent; run scansync plan to see what is left.${stateWords}`,
  )
  process.exit(EXIT.interrupted)
}

async function confirmed(plan: Plan, options: ApplyOptions, io: Io): Promise<boolean> {
  if (options.autoApprove) return true
  if (!io.stdinIsTTY || !io.prompt) {
    throw new UsageError('refusing to apply without confirmation: there is no terminal to ask on; review the plan and pass --auto-approve')
  }
  const n = plan.changes.length
  const answer = await io.prompt(`\nApply ${n} ${n === 1 ? 'change' : 'changes'}? Only "yes" is accepted: `)
  if (answer.trim() === 'yes') return true
  line(io.stderr, 'Apply cancelled; nothing was sent.')
  return false
}

function reportOf(plan: Plan, results: ApplyReport['results'], interrupted: boolean): ApplyReport {
  const count = (outcome: string) => results.filter((r) => r.result === outcome).length
  return {
    results,
    summary: { change: plan.summary.change, unchanged: plan.summary.unchanged, applied: count('applied'), failed: count('failed'), not_applied: count('not_applied') },
    ...(interrupted ? { interrupted } : {}),
  }
}

const emptyReport = (plan: Plan): ApplyReport => reportOf(plan, [], false)

/** The same service: scheme, host, port and base path equal, whatever the case or trailing slashes. */
function sameService(a: string, b: string): boolean {
  const key = (url: string) => {
    try {
      const parsed = new URL(url.trim())
      return `${parsed.origin}${basePath(parsed)}`
    } catch {
      return url
    }
  }
  return key(a) === key(b)
}
