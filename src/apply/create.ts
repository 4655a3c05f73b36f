import { textsOf, variableValuesOf } from '../secrets/redact.js'
import type { DesiredResource, JsonObject } from '../core/types.js'
import { isObject } from '../core/json.js'
import { NotSentError } from '../client/errors.js'
import { readAll, type Requester } from '../live/read.js'
import { compare, type Comparison } from '../plan/build-plan.js'
import { creationComparison } from '../plan/create.js'
import type { Freshness, PlannedResource } from '../plan/staleness.js'
import type { SecretContext } from '../secrets/state.js'
import { KINDS } from '../resources/index.js'
import type { ChangeResult } from '../plan/model.js'
import { targetsWithUrl, urlIndex } from '../resources/identity.js'
import type { ExecuteOptions, PendingChange, Sender } from './change.js'
import { describeFailure, mayHaveLanded, pathsInWords } from './change.js'

/*
 * Creating a target (design.md, Semantics 1): POST to the list with every declared field, then a
 * PATCH of whatever the 201 answer does not reflect, as one change. A POST is never sent twice
 * for one declared target: the client retries it only on 429, and when its answer is lost
 * (timeout, reset, 5xx, interrupt) the target list is read and the URL looked up before anything
 * else: one target with it is the one just created.
 */

/** What creating needs of the HTTP client: writes, and reads to look a lost answer up. */
export type Creator = Sender & Requester

/** The POST body: every declared field, as a PATCH would carry it. */
export function creationBody(desired: DesiredResource): JsonObject {
  return structuredClone(desired.fields)
}

/**
 * The report line names the target already: the client's `target "URL": ` prefix is dropped (as
 * executor.ts does for an update's). The client names it redacted (`target "(sensitive)"` for a URL
 * from a variable): `error`'s `resource` is that name as the client wrote it.
 */
const withoutSubject = (message: string, subject: string, error?: unknown): string => {
  const named = (error as { resource?: unknown } | undefined)?.resource
  for (const prefix of [subject, typeof named === 'string' ? named : undefined]) {
    if (prefix !== undefined && message.startsWith(`${prefix}: `)) return message.slice(prefix.length + 2)
  }
  return message
}

const urlOf = (item: PendingChange): string => item.desired.naturalKey?.value ?? String((item.desired.fields.site as JsonObject | undefined)?.url)

export async function createResource(item: PendingChange, client: Creator, options: ExecuteOptions): Promise<ChangeResult> {
  const { kind, change } = item
  const url = urlOf(item)
  const subject = `${kind.name} ${JSON.stringify(url)}`
  let response: unknown
  try {
    response = await client.request<unknown>('POST', kind.listPath, { body: item.request.body, resource: subject, stop: options.signal })
  } catch (error) {
    // The client's own words say why (Ctrl-C, or the service stopped answering), as for an update:
    // a creation held back by the circuit breaker was said to be "interrupted", though nobody was.
    if (error instanceof NotSentError) return { ...change, result: 'not_applied', error: withoutSubject(error.message, subject, error) }
    if (!mayHaveLanded(error)) return { ...change, result: 'failed', error: withoutSubject(describeFailure(error, item.kind, item.desired), subject, error) }
    return lookUp(item, client, options, error)
  }
  const id = isObject(response) && typeof response.id === 'string' && response.id !== '' ? response.id : undefined
  if (id === undefined) return lookUp(item, client, options, new Error('the service answered the POST with something other than the new resource'))
  // The answer names the target the PATCH below goes to: one with another URL is not the target
  // just created (a service or proxy answering with an existing one), and patching it would write
  // the declared fields over a target the plan never showed. It is looked up by its URL instead.
  if (targetsWithUrl([response], url).length === 0) {
    return lookUp(item, client, options, new Error(`the service answered the POST with target ${id}, whose URL is not ${url}`))
  }
  return completeCreation(item, id, response as JsonObject, client, options)
}

/** A lost answer: the URL looked up in a fresh list. One target: created; none: not created; several: say so. */
async function lookUp(item: PendingChange, client: Creator, options: ExecuteOptions, cause: unknown): Promise<ChangeResult> {
  const { change, kind } = item
  const url = urlOf(item)
  const lost = withoutSubject(describeFailure(cause, item.kind, item.desired), `${kind.name} ${JSON.stringify(url)}`, cause).replace(/; it may or may not have been applied: run scansync plan to see$/, '')
  let live: JsonObject[]
  try {
    live = await readAll(kind, client)
  } catch (error) {
    return {
      ...change,
      result: 'failed',
      error: `${lost}; the target may have been created, and looking its URL up failed too (${(error as Error).message}). Run scansync plan: it finds a created target by its URL and creates nothing twice`,
    }
  }
  const ids = targetsWithUrl(live, url)
  if (ids.length === 0) return { ...change, result: 'failed', error: `${lost}; no target has the URL ${url}, so it was not created: run scansync apply again` }
  if (ids.length > 1) return { ...change, result: 'failed', error: `${lost}; ${ids.length} targets now have the URL ${url} (${ids.join(', ')}): declare the id of the one to keep` }
  const body = live.find((target) => target.id === ids[0])!
  const result = await completeCreation(item, ids[0], body, client, options)
  return { ...result, warnings: [`the answer to the POST was lost (${lost}); the target was found by its URL as ${ids[0]}`, ...(result.warnings ?? [])] }
}

/**
 * After the target exists: records the secrets it hides under its new id, and sends what its
 * state does not reflect in a PATCH to it (part of the same change).
 */
async function completeCreation(item: PendingChange, id: string, body: JsonObject, client: Creator, options: ExecuteOptions): Promise<ChangeResult> {
  const created = { ...item.change, id }
  const desired: DesiredResource = { ...item.desired, id }
  const first = recordSecrets(desired, body, options)
  if (first.fields.length === 0) return { ...created, result: 'applied' }
  const request = item.kind.buildRequest({ desired, live: first.live, raw: body, units: first.units })
  let answer: unknown
  try {
    answer = await client.request<unknown>(request.method, request.path, { body: request.body, resource: `${item.kind.name} ${id}`, stop: options.signal })
  } catch (error) {
    return { ...created, result: 'failed', error: `created as ${id}, but the PATCH of ${pathsInWords(first.fields.map((f) => f.path), options.secrets.context.holds)} failed: ${withoutSubject(describeFailure(error, item.kind, desired), `${item.kind.name} ${id}`, error)}` }
  }
  if (!isObject(answer) || answer.id !== id) return { ...created, result: 'failed', error: `created as ${id}, but the answer to the PATCH of what the creation did not take is not that target: run scansync plan to see` }
  const after = recordSecrets(desired, answer, options)
  if (after.fields.length > 0) return { ...created, result: 'failed', error: `created as ${id}, but the service did not apply ${pathsInWords(after.fields.map((f) => f.path), options.secrets.context.holds)}` }
  return { ...created, result: 'applied' }
}

/** Records every hidden secret of the new target (all were just sent) and compares again with the state knowing them. */
function recordSecrets(desired: DesiredResource, body: JsonObject, options: ExecuteOptions): Comparison {
  const { context } = options.secrets
  for (const secret of compare(desired, body, context).hiddenSecrets) {
    options.secrets.record(desired.kind, desired.id, secret.stateKey, { hmac: context.hmac(secret.declared), live: secret.live }, secret.otherKeys)
  }
  options.secrets.recordVariables(desired.kind, desired.id, variableValuesOf(desired), () => textsOf(body))
  return compare(desired, body, context)
}

/**
 * The creations of a plan against a fresh target list: still no target with the URL, ready (and
 * built from the declaration alone). One target with the URL that already holds every declared
 * value (the secrets state knowing its hidden ones) is the one this plan created, on an earlier
 * run that then failed elsewhere: done, as a lost answer's look-up finds it (a plan applied twice
 * says so). Any other (made by hand, several, or not as declared): stale, the plan no longer says
 * what would happen. Without `secrets` (creation-guard.ts: just before sending, where a target
 * that appeared is another run's) every target with the URL is stale.
 */
export async function freshCreations(planned: readonly PlannedResource[], client: Requester, secrets?: SecretContext): Promise<Freshness> {
  const live = await readAll(KINDS.target, client)
  // Indexed once: looked up in the whole list for each creation, 4,000 creations walked 8,000 targets 4,000 times.
  const urls = urlIndex(live)
  const byId = new Map(live.map((target) => [target.id, target]))
  const freshness: Freshness = { ready: [], stale: [], done: [] }
  for (const resource of planned) {
    const url = resource.desired.naturalKey?.value ?? resource.change.naturalKey?.value ?? ''
    const ids = urls.idsOf(url)
    if (ids.length === 0) freshness.ready.push({ planned: resource, comparison: creationComparison(resource.desired) })
    else if (secrets && ids.length === 1 && asDeclared(resource.desired, ids[0]!, byId, secrets)) freshness.done.push(resource)
    else freshness.stale.push(resource)
  }
  return freshness
}

/** Whether the target `id` holds every value `desired` declares (compared as a plan compares). */
function asDeclared(desired: DesiredResource, id: string, live: ReadonlyMap<unknown, JsonObject>, secrets: SecretContext): boolean {
  const body = live.get(id)
  return body !== undefined && compare({ ...desired, id }, body, secrets).fields.length === 0
}
