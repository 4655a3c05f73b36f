import pLimit from 'p-limit'
import type { DesiredResource, JsonObject } from '../core/types.js'
import type { PlannedRequest, ResourceKind } from '../resources/kind.js'
import { compare } from '../plan/build-plan.js'
import type { ChangeResult, ResourceChange } from '../plan/model.js'
import type { HiddenSecret } from '../plan/diff.js'
import type { SecretsLedger } from '../secrets/state.js'
import { isObject } from '../core/json.js'
import { NotSentError, ServiceError, type FieldProblem } from '../client/errors.js'
import { errorCode } from '../client/retry-policy.js'
import { createResource, type Creator } from './create.js'

/** What applying needs of the HTTP client. */
export interface Sender {
  request<T = unknown>(method: 'PATCH' | 'PUT' | 'POST', path: string, options: { body: unknown; resource: string; stop?: AbortSignal }): Promise<T>
}

/** One change to send: what the plan shows, and the request that makes it so. */
export interface PendingChange {
  change: ResourceChange
  kind: ResourceKind
  desired: DesiredResource
  /** A creation's is `POST` to the kind's list (see create.ts). */
  request: PlannedRequest | { method: 'POST'; path: string; body: JsonObject }
  /** The secrets the service hid when the request was built (their obfuscated tokens before it). */
  hiddenBefore: readonly HiddenSecret[]
}

export interface ExecuteOptions {
  parallelism: number
  /** Secrets the service now hides are recorded in it after each success. */
  secrets: SecretsLedger
  /** Stop starting new requests once aborted (Ctrl-C), retries included. */
  signal?: AbortSignal
  /** How long to wait for requests in flight after an abort. */
  drainMs?: number
  /** A change's request is about to be sent. */
  onStart?(change: ResourceChange): void
  onResult?(result: ChangeResult): void
}

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
  const settle = (item: PendingChange, result: ChangeResult) => {
    results.set(item, result)
    options.onResult?.(result)
  }

  const run = async (item: PendingChange) => {
    if (options.signal?.aborted) return settle(item, { ...item.change, result: 'not_applied', error: interruptedMessage })
    const { method, path, body } = item.request
    options.onStart?.(item.change)
    if (item.change.action === 'create') return settle(item, await createResource(item, sender as Creator, options))
    try {
      const response = await sender.request<unknown>(method, path, { body, resource: `${item.kind.name} ${item.desired.id}`, stop: options.signal })
      const problem = verify(item, response, options)
      // A 200 that did not do what was asked is not claimed as a success.
      settle(item, problem ? { ...item.change, result: 'failed', error: problem } : { ...item.change, result: 'applied' })
    } catch (error) {
      // Never went out: Ctrl-C came, or the client stopped sending (the service stopped answering).
      if (error instanceof NotSentError) return settle(item, { ...item.change, result: 'not_applied', error: withoutSubject(error.message, item) })
      settle(item, { ...item.change, result: 'failed', error: withoutSubject(describeFailure(error, item.kind, item.desired), item) })
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
  const inFlight = 'interrupted while the request was in flight: it may or may not have been applied; run scansync plan to see'
  const ordered = pending.map((item) => results.get(item) ?? { ...item.change, result: 'not_applied' as const, error: inFlight })
  return { results: ordered, interrupted }
}

/** Secrets whose value the plan knows to be new: the service must answer another obfuscated token. */
const NEW_SECRET_REASONS = new Set(['changed in YAML', 'changed on the service'])

/**
 * After a 200, checks the answer against what was sent: records the secrets the service now
 * hides, and returns what the service did not take (undefined when it took everything). A new
 * secret answered with the same obfuscated token as before is not confirmed, and not recorded.
 */
function verify(item: PendingChange, response: unknown, options: ExecuteOptions): string | undefined {
  if (!isObject(response) || response.id !== item.desired.id) {
    return 'the service answered 200 with something other than the resource, so the change may or may not have landed; run scansync plan to see'
  }
  const sentUnits = unitsOf(item.kind, item.request.body as JsonObject)
  const wasSent = (rulePath: string) => sentUnits.some((unit) => rulePath === unit || rulePath.startsWith(unit + '.'))
  const { context } = options.secrets
  const tokenBefore = new Map(item.hiddenBefore.map((secret) => [secret.path, secret.live]))
  const newValues = new Set(item.change.fields.filter((f) => f.sensitive && f.reason && NEW_SECRET_REASONS.has(f.reason)).map((f) => f.path))
  const sentSecrets = new Set<string>()
  const unconfirmed: string[] = []
  for (const secret of compare(item.desired, response, context).hiddenSecrets) {
    if (!wasSent(secret.rulePath)) continue
    sentSecrets.add(secret.path)
    if (newValues.has(secret.path) && tokenBefore.get(secret.path) === secret.live) unconfirmed.push(secret.path)
    else options.secrets.record(item.kind.name, item.desired.id, secret.path, { hmac: context.hmac(secret.declared), live: secret.live })
  }
  // Compared again now that the state knows what was just sent (the secrets sent were checked above).
  const after = compare(item.desired, response, context)
  const planned = new Set(item.change.fields.map((f) => f.path))
  const notTaken = after.fields.filter((f) => planned.has(f.path) && !sentSecrets.has(f.path)).map((f) => f.path)
  const problems = [
    ...(unconfirmed.length > 0
      ? [`not confirmed: the service answered 200, but the obfuscated value of ${unconfirmed.join(', ')} is the one it had before, so the new secret may not have been taken; it is not recorded as in sync (run scansync plan to see)`]
      : []),
    ...(notTaken.length > 0 ? [`the service answered 200 but did not apply ${notTaken.join(', ')}`] : []),
  ]
  return problems.length > 0 ? problems.join('; ') : undefined
}

/** The dotted places a body sets, in the YAML's terms (the kind says where it sends a field elsewhere). */
function unitsOf(kind: ResourceKind, body: JsonObject, prefix = ''): string[] {
  const units: string[] = []
  for (const [key, value] of Object.entries(body)) {
    const path = prefix ? `${prefix}.${key}` : key
    units.push(kind.yamlPlace(path))
    if (isObject(value)) units.push(...unitsOf(kind, value, path))
  }
  return units
}

/** Connection failures that happen before a request is sent: it cannot have landed. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT'])

/**
 * Whether a write that failed may have taken effect all the same: the service did not refuse it
 * or send it elsewhere (a 3xx, a 4xx, 503 "unavailable"), and either it never answered in full (a timeout, a connection
 * lost after the request went out, a body cut off) or it answered 2xx, 500, 502 or 504.
 */
export function mayHaveLanded(error: unknown): boolean {
  if (!(error instanceof ServiceError)) return false
  const status = error.status
  if (status === undefined) return !NEVER_SENT.has(errorCode((error as { cause?: unknown }).cause) ?? '')
  if (status >= 300 && status < 500) return false
  return status !== 503
}

const MAY_HAVE_LANDED = '; it may or may not have been applied: run scansync plan to see'

/** The service's words, with each field error placed at its YAML line. */
export function describeFailure(error: unknown, kind: ResourceKind, desired: DesiredResource): string {
  const message = (error instanceof Error ? error.message : String(error)) + (mayHaveLanded(error) ? MAY_HAVE_LANDED : '')
  const problems = (error as { problems?: FieldProblem[] }).problems
  if (!Array.isArray(problems) || problems.length === 0) return message
  return problems
    .map(({ path, messages }) => {
      const yamlPath = kind.yamlPlace(path)
      const segments = yamlPath.split(/[.[\]]+/).filter(Boolean).map((s) => (/^\d+$/.test(s) ? Number(s) : s))
      const where = segments.length > 0 && !['non_field_errors', 'detail'].includes(yamlPath) ? desired.locate(segments) : desired.source
      return `${yamlPath || 'request'}: ${messages.join(' ')} (${where.file}:${where.line})`
    })
    .join('; ')
}
