import { createHash } from 'node:crypto'
import type { JsonObject } from '../core/types.js'
import { ScansyncError } from '../core/errors.js'
import { isObject } from '../core/json.js'
import { REGISTRY, type ResourceKind } from '../resources/index.js'
import { validator } from '../schema/validators.js'

/** What reading needs of the HTTP client. */
export interface Requester {
  request<T = unknown>(method: 'GET', path: string, options?: { query?: Record<string, string | number>; resource?: string }): Promise<T>
  /** The characters of answer text the client has read; without it, the reader measures the answers itself. */
  readonly stats?: { readonly bytesRead: number }
}

/**
 * The most a run reads, whatever the service says: a broken or hostile service that claims a
 * billion pages, repeats one page for ever or answers without end gets a clear error, never a
 * run that fills the memory.
 */
export interface ReadLimits {
  /** List pages of one kind. */
  maxPages: number
  /** List results of one kind (every item of every page, wanted or not). */
  maxResults: number
  /** Bytes of answers (their JSON text) over the whole run, every kind together. */
  maxBytes: number
}

/** A million resources of a kind; a gigabyte of answers: far above any account seen, far below what breaks a machine. */
export const READ_LIMITS: Readonly<ReadLimits> = { maxPages: 10_000, maxResults: 1_000_000, maxBytes: 1024 * 1024 * 1024 }

/** The bytes a run has read so far; share one between the reads of a run so that the cap holds for the run. */
export class ReadBudget {
  /** Answers measured here (clients without stats). */
  private measured = 0
  /** Each client's count when this budget first saw it. */
  private readonly baselines = new WeakMap<Requester, number>()
  constructor(readonly limits: Readonly<ReadLimits> = READ_LIMITS) {}

  /** Called before a read starts: what the client read before is not this run's. */
  watch(client: Requester): void {
    if (client.stats && !this.baselines.has(client)) this.baselines.set(client, client.stats.bytesRead)
  }

  /** Counts an answer (the client's count when it keeps one: free; else the answer's JSON); throws once the run is over its cap. */
  spend(client: Requester, body: unknown, subject: string): void {
    const baseline = this.baselines.get(client)
    const read = client.stats && baseline !== undefined ? client.stats.bytesRead - baseline : (this.measured += JSON.stringify(body)?.length ?? 0)
    if (read > this.limits.maxBytes) {
      throw new ScansyncError(`${subject}: the service's answers add up to more than ${formatBytes(this.limits.maxBytes)} in this run, the most scansync reads; stopped reading`)
    }
  }
}

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
}

export interface ReadAllOptions extends ReadOptions {
  /** Called once the first page tells how many resources there are, before the other pages are read. */
  onTotal?(count: number): void | Promise<void>
}

/** List pages read at once; the client's own limiter decides how many requests are really in flight. */
const PAGES_AT_ONCE = 64

const statusOf = (error: unknown) => (error as { status?: number } | undefined)?.status
const unlisted = (error: unknown) => statusOf(error) === 404 || statusOf(error) === 405

const budgetOf = (options: ReadOptions) => options.budget ?? new ReadBudget({ ...READ_LIMITS, ...options.limits })

/** Checks that a body is the resource asked for, read tolerantly (unknown fields are fine). */
function asResource(kind: ResourceKind, id: string, body: unknown, how: string): JsonObject {
  const validate = validator(kind.responseValidator)
  if (!isObject(body) || body.id !== id || !validate(body)) {
    const problem = !isObject(body) || body.id !== id ? 'is not that resource' : `has an unexpected shape (${validate.errors?.[0]?.instancePath || '/'} ${validate.errors?.[0]?.message})`
    throw new ScansyncError(`${kind.name} ${id}: the service's answer to ${how} ${problem}`)
  }
  return body
}

interface ListPage {
  pageTotal: number
  /** The service's count of resources, when it says. */
  count?: number
  results: unknown[]
}

/**
 * Walks the list of one kind: page 1, then (once page_total is known and credible) the other
 * pages, a bounded number at a time, each handed to `onItem` as it arrives and then let go.
 * Undefined when the service does not list the kind (404 or 405 on page 1).
 */
class ListReader {
  private readonly how: string
  private readonly seenPages = new Map<string, number>()
  private results = 0
  private failure: unknown
  /** 404 or 405: the service has no list of this kind. */
  unlistedStatus?: number

  constructor(
    private readonly kind: ResourceKind,
    private readonly client: Requester,
    private readonly budget: ReadBudget,
    private readonly pageLength: number,
    private readonly onItem: (item: unknown) => void,
  ) {
    this.how = `GET ${kind.listPath}`
  }

  /** Page 1, checked against the caps (not yet taken); undefined when the kind is not listed. */
  async first(): Promise<ListPage | undefined> {
    let body: unknown
    try {
      body = await this.fetch(1)
    } catch (error) {
      if (unlisted(error)) {
        this.unlistedStatus = statusOf(error)
        return undefined
      }
      throw error
    }
    const page = this.check(body)
    const { maxPages, maxResults } = this.budget.limits
    if (page.pageTotal > maxPages) {
      throw new ScansyncError(
        `${this.how}: the service says the ${this.kind.name} list has ${page.pageTotal} pages, more than the ${maxPages} scansync reads (${this.pageLength} a page); nothing more was read`,
      )
    }
    if (page.count !== undefined && page.count > maxResults) {
      throw new ScansyncError(`${this.how}: the service says it has ${page.count} ${this.kind.name}s, more than the ${maxResults} scansync reads; nothing more was read`)
    }
    return page
  }

  /** Pages 2 to `last`, at most PAGES_AT_ONCE in flight; the first failure stops the others from starting. */
  async rest(last: number): Promise<void> {
    let next = 2
    const worker = async () => {
      while (this.failure === undefined && next <= last) {
        const n = next++
        try {
          this.take(n, this.check(await this.fetch(n)))
        } catch (error) {
          this.failure ??= error
        }
      }
    }
    await Promise.all(Array.from({ length: Math.min(PAGES_AT_ONCE, Math.max(0, last - 1)) }, worker))
    if (this.failure !== undefined) throw this.failure
  }

  private async fetch(n: number): Promise<unknown> {
    const body = await this.client.request<unknown>('GET', this.kind.listPath, { query: { page: n, length: this.pageLength }, resource: `the ${this.kind.name} list` })
    this.budget.spend(this.client, body, this.how)
    return body
  }

  private check(body: unknown): ListPage {
    const validate = validator('listPage')
    if (!validate(body)) throw new ScansyncError(`the service's answer to ${this.how} is not a list page`)
    const page = body as { page_total?: number; count?: number; length?: number; results: unknown[] }
    const pageTotal = page.page_total ?? (page.count !== undefined && page.length ? Math.ceil(page.count / page.length) : 1)
    return { pageTotal, count: page.count, results: page.results }
  }

  /** Hands over the results of page `n`, once the caps and the repeated-page check pass. */
  take(n: number, page: ListPage): void {
    this.results += page.results.length
    if (this.results > this.budget.limits.maxResults) {
      throw new ScansyncError(`${this.how}: the ${this.kind.name} list holds more than ${this.budget.limits.maxResults} results, the most scansync reads; stopped reading`)
    }
    const signature = pageSignature(page.results)
    if (signature !== undefined) {
      const earlier = this.seenPages.get(signature)
      if (earlier !== undefined) {
        throw new ScansyncError(`${this.how}: page ${Math.max(n, earlier)} of the ${this.kind.name} list repeats page ${Math.min(n, earlier)}: the service is not paging; stopped reading`)
      }
      this.seenPages.set(signature, n)
    }
    for (const item of page.results) this.onItem(item)
  }
}

/** The ids of a page's results in order, hashed; undefined for an empty page (those may well repeat). */
function pageSignature(results: unknown[]): string | undefined {
  if (results.length === 0) return undefined
  const hash = createHash('sha1')
  for (const item of results) hash.update(`${isObject(item) ? String(item.id) : JSON.stringify(item)}\n`)
  return hash.digest('base64')
}

/**
 * Reads the live state of the declared resources of one kind: through the list pages when that
 * takes fewer requests than one GET per id, else by id. A declared id missing from the list is
 * confirmed with a GET (a 404 then names it).
 */
export async function readLive(kind: ResourceKind, ids: string[], client: Requester, options: ReadOptions = {}): Promise<Map<string, JsonObject>> {
  const budget = budgetOf(options)
  budget.watch(client)
  const found = new Map<string, JsonObject>()
  const seen = new Set<string>()
  const wanted = new Set(ids)
  const keep = (id: string, body: JsonObject) => {
    seen.add(id)
    if (options.onResource) options.onResource(id, body)
    else found.set(id, body)
    options.onProgress?.(1)
  }
  const take = (item: unknown) => {
    if (isObject(item) && typeof item.id === 'string' && wanted.has(item.id) && !seen.has(item.id)) keep(item.id, asResource(kind, item.id, item, `GET ${kind.listPath}`))
  }

  if (ids.length > 2) {
    const list = new ListReader(kind, client, budget, options.pageLength ?? 100, take)
    const first = await list.first()
    if (first) {
      list.take(1, first)
      const remainingPages = Math.max(0, first.pageTotal - 1)
      if (remainingPages > 0 && remainingPages <= wanted.size - seen.size) await list.rest(first.pageTotal)
    }
  }

  const missing = ids.filter((id) => !seen.has(id))
  const bodies = await settleAll(
    missing.map(async (id) => {
      const body = await client.request<unknown>('GET', kind.itemPath(id), { resource: `${kind.name} ${id}` })
      budget.spend(client, body, `GET ${kind.itemPath(id)}`)
      return body
    }),
  )
  missing.forEach((id, i) => keep(id, asResource(kind, id, bodies[i], `GET ${kind.itemPath(id)}`)))
  return found
}

/**
 * Reads every resource of one kind through the list pages. Sorted by id; a resource met on two
 * pages (the list moved while it was read) counts once.
 */
export async function readAll(kind: ResourceKind, client: Requester, options: ReadAllOptions = {}): Promise<JsonObject[]> {
  const how = `GET ${kind.listPath}`
  const found = new Map<string, JsonObject>()
  const take = (item: unknown) => {
    const id = isObject(item) && typeof item.id === 'string' ? item.id : undefined
    if (id === undefined) throw new ScansyncError(`the service's answer to ${how} holds a ${kind.name} without an id`)
    if (found.has(id)) return
    found.set(id, asResource(kind, id, item, how))
    options.onProgress?.(1)
  }
  const budget = budgetOf(options)
  budget.watch(client)
  const list = new ListReader(kind, client, budget, options.pageLength ?? 100, take)
  const first = await list.first()
  if (!first) throw new ScansyncError(`the service does not list ${kind.name}s (${how} answered ${list.unlistedStatus}); name them with --id instead`)
  await options.onTotal?.(first.count ?? first.results.length * first.pageTotal)
  list.take(1, first)
  await list.rest(first.pageTotal)
  return [...found.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((id) => found.get(id)!)
}

/** Who is declared: a kind and an id. */
export interface Declared {
  kind: ResourceKind['name']
  id: string
}

export interface ReadDeclaredOptions extends Omit<ReadOptions, 'onResource'> {
  /** Each resource as it is read; the bodies are not kept. */
  onResource(kind: ResourceKind, id: string, body: JsonObject): void
}

/**
 * The live state of declared resources of several kinds: every kind read at once, one budget for
 * the run. The one loop over kinds of plan and apply --plan.
 */
export async function readDeclared(declared: readonly Declared[], client: Requester, options: ReadDeclaredOptions): Promise<void> {
  const { onResource, ...rest } = options
  const budget = budgetOf(rest)
  budget.watch(client)
  await Promise.all(
    REGISTRY.map(async (kind) => {
      const ids = [...new Set(declared.filter((d) => d.kind === kind.name).map((d) => d.id))]
      if (ids.length === 0) return
      await readLive(kind, ids, client, { ...rest, budget, onResource: (id, body) => onResource(kind, id, body) })
    }),
  )
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

/** "1 GB", "512 KB". */
const formatBytes = (bytes: number): string =>
  bytes >= 1024 ** 3 ? `${Number((bytes / 1024 ** 3).toFixed(1))} GB` : bytes >= 1024 ** 2 ? `${Number((bytes / 1024 ** 2).toFixed(1))} MB` : bytes >= 1024 ? `${Number((bytes / 1024).toFixed(1))} KB` : `${bytes} bytes`
