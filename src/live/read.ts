import type { JsonObject } from '../core/types.js'
import { ScansyncError } from '../core/errors.js'
import { isObject } from '../core/json.js'
import { REGISTRY, type ResourceKind } from '../resources/index.js'
import { validator } from '../schema/validators.js'
import { ReadBudget, READ_LIMITS, type ReadLimits } from './budget.js'
import { ListReader, type Listed } from './list.js'
import { pagesUncounted, refuseUncountedPages } from './pages.js'
import type { ListPrefetch } from './prefetch.js'
import type { Requester } from './requester.js'

export { ReadBudget, READ_LIMITS, type ReadLimits } from './budget.js'
export type { Requester } from './requester.js'
export { ListPrefetch } from './prefetch.js'

export interface ReadOptions {
  /** Results per list page (the service caps it at 100). */
  pageLength?: number
  /** Called once per declared resource read. */
  onProgress?(count: number): void
  /**
   * Hands each resource over as soon as it is read, instead of keeping them all: a plan of many
   * resources then holds only what it compares, not every answer (the returned map stays empty).
   */
  onResource?(id: string, body: JsonObject): void
  /** Caps other than READ_LIMITS (tests), for a budget made here. */
  limits?: Partial<ReadLimits>
  /** The run's budget, shared across kinds; one is made for this read when absent. */
  budget?: ReadBudget
  /** List pages read ahead while the configuration was loading. */
  prefetch?: ListPrefetch
  /**
   * A declared id the service answers 404 for (deleted by hand): handed here, and the read goes
   * on, instead of failing it. Without it, the 404 fails the read.
   */
  onMissing?(id: string, error: unknown): void
}

export interface ReadAllOptions extends ReadOptions {
  /** Called once the first page tells how many resources there are, before the other pages are read. */
  onTotal?(count: number): void | Promise<void>
}

const budgetOf = (options: ReadOptions) => options.budget ?? new ReadBudget({ ...READ_LIMITS, ...options.limits })

/** Checks that a body is the resource asked for, read tolerantly (unknown fields are fine). */
function asResource(kind: Listed, id: string, body: unknown, how: string): JsonObject {
  const validate = validator(kind.responseValidator)
  if (!isObject(body) || body.id !== id || !validate(body)) {
    const problem = !isObject(body) || body.id !== id ? 'is not that resource' : `has an unexpected shape (${validate.errors?.[0]?.instancePath || '/'} ${validate.errors?.[0]?.message})`
    throw new ScansyncError(`${kind.name} ${id}: the service's answer to ${how} ${problem}`)
  }
  return body
}

/** A declared resource the service answered 404 for (ReadOptions.onMissing). */
const GONE = Symbol('gone')

/**
 * Reads the live state of the declared resources of one kind: through the list pages when that
 * takes fewer requests than one GET per id, else by id. A declared id missing from the list is
 * confirmed with a GET (a 404 then names it).
 */
export async function readLive(kind: ResourceKind, ids: string[], client: Requester, options: ReadOptions = {}): Promise<Map<string, JsonObject>> {
  const budget = budgetOf(options)
  budget.watch(client, options.prefetch?.readFrom(client))
  const found = new Map<string, JsonObject>()
  const seen = new Set<string>()
  const wanted = new Set(ids)
  // `unoptimised…`: these run once per resource read; V8's optimising compiler leaves them alone (bin/v8-flags.js).
  const unoptimisedKeep = (id: string, body: JsonObject) => {
    seen.add(id)
    if (options.onResource) options.onResource(id, body)
    else found.set(id, body)
    options.onProgress?.(1)
  }
  const unoptimisedTake = (item: unknown) => {
    if (isObject(item) && typeof item.id === 'string' && wanted.has(item.id) && !seen.has(item.id)) unoptimisedKeep(item.id, asResource(kind, item.id, item, `GET ${kind.listPath}`))
  }

  if (ids.length > 2) {
    const list = new ListReader(kind, client, budget, options.pageLength ?? 100, unoptimisedTake, options.prefetch)
    const first = await list.first()
    if (first) {
      // The other pages are asked for before page 1 is taken (checked and compared), so that
      // the requests do not wait for the CPU; whether they are worth it needs only page 1's ids.
      const remainingPages = Math.max(0, first.pageTotal - 1)
      const onFirst = new Set(first.results.flatMap((item) => (isObject(item) && typeof item.id === 'string' && wanted.has(item.id) ? [item.id] : [])))
      const taken = list.take(1, first)
      if (remainingPages > 0 && remainingPages <= wanted.size - onFirst.size) await firstFailure([taken, list.rest(first.pageTotal)])
      else await taken
    }
  }

  const unlisted = ids.filter((id) => !seen.has(id))
  const bodies = await settleAll(
    unlisted.map(async (id) => {
      try {
        const body = await client.request<unknown>('GET', kind.itemPath(id), { resource: `${kind.name} ${id}` })
        budget.spend(client, body, `GET ${kind.itemPath(id)}`)
        return body
      } catch (error) {
        if (options.onMissing === undefined || (error as { status?: number }).status !== 404) throw error
        options.onMissing(id, error)
        return GONE
      }
    }),
  )
  unlisted.forEach((id, i) => bodies[i] !== GONE && unoptimisedKeep(id, asResource(kind, id, bodies[i], `GET ${kind.itemPath(id)}`)))
  return found
}

/** How many times readAll reads a list that moves while it is read. */
const LIST_READS = 3

/**
 * Reads every resource of one kind through the list pages. Sorted by id; a resource met on two
 * pages (the list moved while it was read) counts once; a list that moved is read again.
 */
export async function readAll(kind: ResourceKind, client: Requester, options: ReadAllOptions = {}): Promise<JsonObject[]> {
  return (await readWhole(kind, client, options, true))!
}

/**
 * As readAll, but undefined when the service does not list this kind (page 1 answers 404 or 405):
 * for a list read only to check something that the run can do without.
 */
export function readAllIfListed(kind: ResourceKind, client: Requester, options: ReadAllOptions = {}): Promise<JsonObject[] | undefined> {
  return readWhole(kind, client, options, false)
}

/** As readAll or readAllIfListed (`required`), for any list: a kind's, or the team list (teams.ts). */
export async function readWhole(kind: Listed, client: Requester, options: ReadAllOptions, required: boolean): Promise<JsonObject[] | undefined> {
  const how = `GET ${kind.listPath}`
  const found = new Map<string, JsonObject>()
  const unoptimisedTake = (item: unknown) => {
    const id = isObject(item) && typeof item.id === 'string' ? item.id : undefined
    if (id === undefined) throw new ScansyncError(`the service's answer to ${how} holds a ${kind.name} without an id`)
    if (found.has(id)) return
    found.set(id, asResource(kind, id, item, how))
    options.onProgress?.(1)
  }
  const budget = budgetOf(options)
  budget.watch(client, options.prefetch?.readFrom(client))
  let list = new ListReader(kind, client, budget, options.pageLength ?? 100, unoptimisedTake, options.prefetch)
  const first = await list.first()
  if (!first) {
    if (!required) return undefined
    throw new ScansyncError(`the service does not list ${kind.name}s (${how} answered ${list.unlistedStatus}); ${kind.instead ?? 'name them with --id instead'}`)
  }
  // A list read only to check something the run can do without is let go when its pages cannot be counted.
  if (!required && pagesUncounted(list.firstBody)) return undefined
  refuseUncountedPages(list.firstBody, kind.name, how)
  await options.onTotal?.(first.count ?? first.results.length * first.pageTotal)
  await firstFailure([list.take(1, first), list.rest(first.pageTotal)])
  // Page 1's count in each read: the same in every one, a page gone in each was no shrink.
  const counts = [first.count]
  // Fewer resources met than the read's page 1 counted, though every page said that count: a page
  // was served short (the list moved in a way the counts do not show, or the service lost some).
  const short = () => counts.at(-1) !== undefined && found.size < counts.at(-1)!
  // The list moved while it was read (a resource deleted before a page not yet read moves the next
  // one onto a page already read, unseen), or came back short: read again, at most LIST_READS times
  // in all, a resource met in any read counting once, until a read finds the list still and whole.
  for (let reads = 1; (list.moved || short()) && reads < LIST_READS; reads++) {
    const next = new ListReader(kind, client, budget, options.pageLength ?? 100, unoptimisedTake)
    const again = await next.first()
    if (!again) {
      // The read before lost a page: what it saw is not the whole list.
      if (list.vanished !== undefined) {
        throw new ScansyncError(`${how}: page ${list.vanished} of the ${kind.name} list was gone when asked for, and page 1 answered ${next.unlistedStatus} when the list was read again; run again`)
      }
      break
    }
    list = next
    counts.push(again.count)
    await firstFailure([list.take(1, again), list.rest(again.pageTotal)])
  }
  // A page was still gone in the last read: resources beyond it were never seen.
  if (list.vanished !== undefined) {
    const count = counts[0]
    if (count !== undefined && counts.length === LIST_READS && counts.every((c) => c === count)) {
      throw new ScansyncError(
        `${how}: page ${list.vanished} of the ${kind.name} list answered 404 in each of ${LIST_READS} reads, while page 1 counted ${count} ${kind.name}s in each: the list did not shrink, the service (or a proxy before it) does not serve that page`,
      )
    }
    throw new ScansyncError(`${how}: page ${list.vanished} of the ${kind.name} list was gone when asked for: the list shrank while it was read, in each of ${LIST_READS} reads; run again`)
  }
  // Still short in a read that did not move: what was read is not the whole list (one read only
  // to check something the run can do without is let go, as one whose pages cannot be counted).
  if (!list.moved && short()) {
    if (!required) return undefined
    throw new ScansyncError(
      `${how}: the ${kind.name} list's pages held ${found.size} ${kind.name}s, fewer than the ${counts.at(-1)} its page 1 counted, in each of ${counts.length} reads: some pages were served short; run again`,
    )
  }
  return [...found.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((id) => found.get(id)!)
}

/** Who is declared: a kind and an id. */
export interface Declared {
  kind: ResourceKind['name']
  id: string
}

export interface ReadDeclaredOptions extends Omit<ReadOptions, 'onResource' | 'onMissing'> {
  /** Each resource as it is read; the bodies are not kept. */
  onResource(kind: ResourceKind, id: string, body: JsonObject): void
  /** A declared resource the service answers 404 for (ReadOptions.onMissing); without it, the 404 fails the read. */
  onMissing?(kind: ResourceKind, id: string, error: unknown): void
}

/**
 * The live state of declared resources of several kinds: every kind read at once, one budget for
 * the run. The one loop over kinds of plan and apply --plan.
 */
export async function readDeclared(declared: readonly Declared[], client: Requester, options: ReadDeclaredOptions): Promise<void> {
  const { onResource, onMissing, ...rest } = options
  const budget = budgetOf(rest)
  budget.watch(client, rest.prefetch?.readFrom(client))
  // Every kind's reads end before a failure is reported (the caller may explain it by all of
  // them); the first kind's failure, in the registry's order, is the one reported.
  const settled = await Promise.allSettled(
    REGISTRY.map(async (kind) => {
      const ids = [...new Set(declared.filter((d) => d.kind === kind.name).map((d) => d.id))]
      if (ids.length === 0) return
      await readLive(kind, ids, client, { ...rest, budget, onResource: (id, body) => onResource(kind, id, body), ...(onMissing ? { onMissing: (id: string, error: unknown) => onMissing(kind, id, error) } : {}) })
    }),
  )
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected')
  if (failed) throw failed.reason
}

/** Waits for both parts of one list (they stop each other on a failure); throws the first one's error. */
async function firstFailure(parts: Promise<void>[]): Promise<void> {
  const failed = (await Promise.allSettled(parts)).find((s): s is PromiseRejectedResult => s.status === 'rejected')
  if (failed) throw failed.reason
}

/** Waits for every request; if any failed, throws one error naming each distinct failure. */
async function settleAll<T>(promises: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(promises)
  const failures = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected').map((s) => s.reason as Error)
  if (failures.length === 1) throw failures[0]
  if (failures.length > 1) {
    const messages = [...new Set(failures.map((f) => f.message))]
    const shown = messages.slice(0, 10).join('\n  ')
    const more = messages.length > 10 ? `\n  … and ${messages.length - 10} more` : ''
    throw new ScansyncError(`${failures.length} reads failed:\n  ${shown}${more}`)
  }
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value)
}
