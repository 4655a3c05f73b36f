import type { ApplyReport, Plan } from '../plan/model.js'
import type { Ready } from '../plan/staleness.js'
import { hasStateToWrite, recordsOnlyVariables, writeSecretsState, writeSecretsStateSync, type SecretsLedger, type StateUpdate } from '../secrets/state.js'
import { executeChanges, sendsPlace, type Sender } from './executor.js'
import { pendingOf } from './refresh.js'
import { shareColoursAmong } from '../resources/account-colours.js'
import { shareRenamesAmong } from '../resources/references.js'
import { reportOf, type Tally } from './report.js'
import { checkWritable, writeFailure } from '../core/whole-file.js'
import { ScansyncError } from '../core/errors.js'
import { liveSecrets } from '../secrets/redact.js'
import type { JsonObject } from '../core/types.js'

export interface SendOptions {
  client: Sender
  parallelism: number
  ledger: SecretsLedger
  statePath: string
  stateUpdate(): StateUpdate
  /** Aborted on the first Ctrl-C: no new request starts. */
  signal: AbortSignal
  /** Kept up to date as changes start and settle. */
  known: Tally
  onResult?(): void
  /** The run's output step for files (Redaction.file): the state passes through it. */
  redactFile(text: string): string
  /** Called once when the secrets state's lock is taken, before it waits for it (the changes are sent by then). */
  onStateWait?(lock: string): void
  /** The write an interrupt started of what had landed (recordLanded), if any: done before the last write, so that this run never waits for itself. */
  landed?(): Promise<void> | undefined
}

/**
 * Sends the requests of the ready resources (built from their latest read), then writes the
 * secrets state, even after failures and interrupts: it records what did land. A state that cannot
 * be written is returned as words, not thrown: the report of what was sent comes first.
 */
export async function sendChanges(plan: Plan, ready: readonly Ready[], options: SendOptions): Promise<{ report: ApplyReport; stateProblem?: string; stateNote?: string }> {
  shareColoursAmong(ready.map((item) => item.planned.desired))
  shareRenamesAmong(ready.map((item) => item.comparison))
  const outcome = await executeChanges(ready.map(pendingOf), options.client, {
    parallelism: options.parallelism,
    secrets: options.ledger,
    signal: options.signal,
    onStart: (change) => options.known.start(change),
    onResult: (result) => {
      options.known.settle(result)
      options.onResult?.()
    },
  })
  const report = reportOf(plan, outcome.results, outcome.interrupted)
  const update = options.stateUpdate()
  if (!hasStateToWrite(options.ledger.status, update)) return { report }
  await options.landed?.()
  try {
    await writeSecretsState(options.statePath, update, options.redactFile, options.onStateWait)
    return { report }
  } catch (error) {
    // Only values from variables to record (no secret the service hides): the apply stands, said in a note.
    if (recordsOnlyVariables(options.ledger.status, update)) return { report, stateNote: variablesNote(options.statePath, error) }
    return { report, stateProblem: stateProblem(options.statePath, error) }
  }
}

/**
 * Before an apply sends a resource holding a secret the service hides (or will hide once sent),
 * the state that records it must be writable: found only after the last write, the secrets were
 * sent and not recorded, and every later plan showed them as "not yet tracked" and sent them again,
 * at every run of a CI job whose state is a link or read-only. Values from variables alone are not
 * worth refusing for: they are said in a note after the apply (variablesNote).
 */
export async function checkStateWritable(ready: readonly Ready[], statePath: string): Promise<void> {
  if (!ready.some(sendsSecrets)) return
  await checkWritable(statePath).catch((error) => {
    throw new ScansyncError(`the secrets state ${statePath} cannot be written (${writeFailure(error)}): this apply sends secrets it must record there, or every later plan would show them as "not yet tracked" and send them again; make it writable, or name another file with --state`)
  })
}

/**
 * Whether the request of a ready resource carries a secret the service hides or will hide: a
 * creation's body is all it declares; an update records only the secrets its body sets (as the
 * check of its answer does), so one that changes another field (a target's name) has nothing to
 * record however many it holds.
 */
function sendsSecrets(item: Ready): boolean {
  const { planned, comparison } = item
  if (planned.change.action === 'create') return liveSecrets(comparison.kind, planned.desired.fields).length > 0
  const pending = pendingOf(item)
  const sent = sendsPlace(pending)
  return comparison.hiddenSecrets.some((secret) => sent(secret.rulePath)) || liveSecrets(comparison.kind, pending.request.body as JsonObject).length > 0
}

const variablesNote = (statePath: string, error: unknown): string =>
  `Note: the secrets state could not be written to ${statePath} (${writeFailure(error)}): it does not record the values this apply took from variables, so once one is rotated, a plan may show the old value the service still holds`

const stateProblem = (statePath: string, error: unknown): string => {
  return `the changes above were sent, but the secrets state could not be written to ${statePath} (${writeFailure(error)}); secrets the service hides will be planned again as "not yet tracked"`
}

/**
 * For a first Ctrl-C (or SIGTERM): records what has landed at once, before the wait for the requests
 * in flight (up to 10 s): a CI runner's SIGKILL may come first (`docker stop` waits 10 s), and what
 * was applied was then planned again as "not yet tracked". The write after the wait records the rest
 * and says any failure.
 */
export async function recordLanded(options: Pick<SendOptions, 'statePath' | 'stateUpdate' | 'redactFile' | 'ledger'>): Promise<void> {
  const update = options.stateUpdate()
  if (hasStateToWrite(options.ledger.status, update)) await writeSecretsState(options.statePath, update, options.redactFile).catch(() => undefined)
}

/**
 * For a second Ctrl-C: records what landed, synchronously (nothing can be awaited any more), and
 * says where things stand. With nothing to record, nothing is written, as after a whole apply.
 */
export function quitAtOnce(options: Pick<SendOptions, 'statePath' | 'stateUpdate' | 'known' | 'redactFile' | 'ledger'>): string {
  let stateWords = ''
  try {
    const update = options.stateUpdate()
    if (hasStateToWrite(options.ledger.status, update)) writeSecretsStateSync(options.statePath, update, options.redactFile)
  } catch (error) {
    stateWords = ` The secrets state could not be written to ${options.statePath} (${writeFailure(error)}).`
  }
  return `\nQuit at once: ${options.known.words()}; run scansync plan to see what is left.${stateWords}`
}
