import { textsOf, variableValuesOf } from '../secrets/redact.js'
import pLimit from 'p-limit'
import type { JsonObject } from '../core/types.js'
import type { ResourceKind } from '../resources/kind.js'
import { compare } from '../plan/build-plan.js'
import type { ChangeResult } from '../plan/model.js'
import type { HiddenSecret } from '../plan/diff.js'
import type { SecretEntry } from '../secrets/state.js'
import { isObject } from '../core/json.js'
import { NotSentError } from '../client/errors.js'
import { createResource, type Creator } from './create.js'
import { describeFailure, pathsInWords, type ExecuteOptions, type PendingChange, type Sender } from './change.js'

export { describeFailure, mayHaveLanded, type ExecuteOptions, type PendingChange, type Sender } from './change.js'

const interruptedMessage = 'not sent: interrupted before it started'

/** The report line names the resource already: the client's "target X: " prefix is dropped. */
const withoutSubject = (message: string, item: PendingChange) => {
  const subject = `${item.kind.name} ${item.desired.id}: `
  return message.startsWith(subject) ? message.slice(subject.length) : message
}

/**
 * Sends the changes, up to `parallelism` at once. A failure does not stop the others; each change
 * gets a result. PATCH and PUT set values, so a request the client retried after a lost answer
 * lands once in effect.
 */
export async function executeChanges(pending: PendingChange[], sender: Sender, options: ExecuteOptions): Promise<{ results: ChangeResult[]; interrupted: boolean }> {
  const limit = pLimit(Math.max(1, options.parallelism))
  const results = new Map<PendingChange, ChangeResult>()
  // Changes whose request was handed to the client: one still unsettled after the drain went out.
  const started = new Set<PendingChange>()
  const settle = (item: PendingChange, result: ChangeResult) => {
    results.set(item, result)
    options.onResult?.(result)
  }

  const run = async (item: PendingChange) => {
    if (options.signal?.aborted) return settle(item, { ...item.change, result: 'not_applied', error: interruptedMessage })
    const { method, path, body } = item.request
    started.add(item)
    options.onStart?.(item.change)
    if (item.change.action === 'create') return settle(item, await createResource(item, sender as Creator, options))
    try {
      const response = await sender.request<unknown>(method, path, { body, resource: `${item.kind.name} ${item.desired.id}`, stop: options.signal })
      const { problem, warnings } = verify(item, response, options)
      // A 200 that did not do what was asked is not claimed as a success.
      // The warnings too when it failed: what they say of a secret was recorded all the same.
      settle(item, { ...item.change, ...(problem ? { result: 'failed', error: problem } : { result: 'applied' }), ...(warnings.length > 0 ? { warnings } : {}) })
    } catch (error) {
      // Never went out: Ctrl-C came, or the client stopped sending (the service stopped answering).
      if (error instanceof NotSentError) return settle(item, { ...item.change, result: 'not_applied', error: withoutSubject(error.message, item) })
      settle(item, { ...item.change, result: 'failed', error: withoutSubject(describeFailure(error, item.kind, item.desired, item.live), item) })
    }
  }

  // A task that starts after an abort settles at once as not applied, so `all` always ends.
  const all = Promise.all(pending.map((item) => limit(() => run(item))))
  const signal = options.signal
  if (signal && !signal.aborted) {
    const aborted = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
    await Promise.race([all, aborted])
  }
  const interrupted = Boolean(signal?.aborted)
  if (interrupted) {
    // Requests in flight get a bounded time to finish.
    await Promise.race([all, new Promise<void>((resolve) => setTimeout(resolve, options.drainMs ?? 10_000).unref())])
  } else {
    await all
  }
  // Unsettled after the drain: a change whose request started was sent (and may have landed), so it
  // is failed with an unknown outcome, as a timeout is, never "not applied" (the report's `sent:
  // false`); one still queued behind it never started.
  const inFlight = 'interrupted while the request was in flight: it may or may not have been applied; run scansync plan to see'
  const ordered = pending.map(
    (item): ChangeResult =>
      results.get(item) ?? (started.has(item) ? { ...item.change, result: 'failed', error: inFlight } : { ...item.change, result: 'not_applied', error: interruptedMessage }),
  )
  return { results: ordered, interrupted }
}

/** Secrets whose value the plan knows to be new: the service must answer another obfuscated token. */
const NEW_SECRET_REASONS = new Set(['changed in YAML', 'changed on the service'])

/**
 * Whether the service held, before the write, another value than the one sent: changed on the
 * service, it holds another than the recorded one, which is sent; changed in YAML, only while it
 * still holds the recorded one (its token before is the recorded token). Changed in both places (a
 * secret rotated by hand, then to that value in the YAML), it may hold the one sent already.
 */
function knownNew(reason: string | undefined, secret: HiddenSecret, tokenBefore: string | undefined, recorded: (key: string) => SecretEntry | undefined): boolean {
  if (!reason || !NEW_SECRET_REASONS.has(reason)) return false
  if (reason !== 'changed in YAML') return true
  const entry = [secret.stateKey, ...secret.otherKeys, secret.path].map(recorded).find(Boolean)
  return entry !== undefined && entry.live === tokenBefore
}

/**
 * After a 200, checks the answer against what was sent: records the secrets the service now
 * hides, and returns what the service did not take (undefined when it took everything). A new
 * secret answered with the same obfuscated token as before is not confirmed, and not recorded.
 */
function verify(item: PendingChange, response: unknown, options: ExecuteOptions): { problem?: string; warnings: string[] } {
  if (!isObject(response) || response.id !== item.desired.id) {
    return { problem: 'the service answered 200 with something other than the resource, so the change may or may not have landed; run scansync plan to see', warnings: [] }
  }
  const wasSent = sendsPlace(item)
  const { context } = options.secrets
  // By their key in the secrets state: a display path is no name for one (two list keys from
  // variables both print `[(sensitive)]`; a saved plan masks a key holding a secret of the run).
  const hiddenBefore = new Map(item.hiddenBefore.map((secret) => [secret.stateKey, secret]))
  const entryAt = (key: string) => context.entry(item.kind.name, item.desired.id, key)
  const sentSecrets = new Set<string>()
  const unconfirmed: string[] = []
  /** New secrets answered with the token the service had before, which was not the recorded one (knownNew). */
  const adopted: string[] = []
  const first = compare(item.desired, response, context)
  let recorded = false
  for (const secret of first.hiddenSecrets) {
    if (!wasSent(secret.rulePath)) continue
    sentSecrets.add(secret.path)
    const before = hiddenBefore.get(secret.stateKey)?.live
    const reason = hiddenBefore.get(secret.stateKey)?.reason
    if (before === secret.live && knownNew(reason, secret, before, entryAt)) unconfirmed.push(secret.path)
    else {
      if (before === secret.live && reason !== undefined && NEW_SECRET_REASONS.has(reason)) adopted.push(secret.path)
      options.secrets.record(item.kind.name, item.desired.id, secret.stateKey, { hmac: context.hmac(secret.declared), live: secret.live }, secret.otherKeys)
      recorded = true
    }
  }
  // The values from variables it now holds: recognised as secrets once rotated (SecretContext.known).
  options.secrets.recordVariables(item.kind.name, item.desired.id, variableValuesOf(item.desired), () => textsOf(response))
  // Compared again once the state knows what was just sent (the secrets sent were checked above);
  // with nothing recorded, the comparison would be the same.
  const after = recorded ? compare(item.desired, response, context) : first
  const planned = new Set(item.planned ?? item.change.fields.map((f) => f.path))
  const notTaken = after.fields.filter((f) => planned.has(f.path) && !sentSecrets.has(f.path)).map((f) => f.path)
  const problems = [
    ...(unconfirmed.length > 0
      ? [`not confirmed: the service answered 200, but the obfuscated value of ${pathsInWords(unconfirmed, context.holds)} is the one it had before, so the new secret may not have been taken; it is not recorded as in sync (run scansync plan to see)`]
      : []),
    ...(notTaken.length > 0 ? [`the service answered 200 but did not apply ${pathsInWords(notTaken, context.holds)}`] : []),
  ]
  // The service may have held this value already (set by hand), or not have taken it: the same
  // token either way. Recorded, so that the plan empties; said, so that it can be checked.
  const warnings =
    adopted.length > 0
      ? [`the service answered the obfuscated value of ${pathsInWords(adopted, context.holds)} it held before this write, which was not the one last applied: recorded as in sync, as it is if the service held this value already (set by hand); if it did not take it, no plan can tell: check it in the service`]
      : []
  return { ...(problems.length > 0 ? { problem: problems.join('; ') } : {}), warnings }
}

/**
 * Whether the request sends a value at the place (a rule path): a member it sets, or one within a
 * list or value it sends whole. An object it only passes through (`site` for `site.name`) does not
 * send its other members.
 */
export function sendsPlace(item: Pick<PendingChange, 'kind' | 'request'>): (rulePath: string) => boolean {
  const leaves = unitsOf(item.kind, item.request.body as JsonObject)
  return (rulePath: string) => leaves.some((unit) => rulePath === unit || rulePath.startsWith(unit + '.'))
}

/** The dotted places of the values a body sets, in the YAML's terms (the kind says where it sends a field elsewhere): not the objects on their way. */
function unitsOf(kind: ResourceKind, body: JsonObject, prefix = ''): string[] {
  const units: string[] = []
  for (const [key, value] of Object.entries(body)) {
    const path = prefix ? `${prefix}.${key}` : key
    if (isObject(value)) units.push(...unitsOf(kind, value, path))
    else units.push(kind.yamlPlace(path))
  }
  return units
}
