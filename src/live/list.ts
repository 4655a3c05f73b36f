import { createHash } from 'node:crypto'
import { ScansyncError } from '../core/errors.js'
import { isObject } from '../core/json.js'
import type { ResourceKind } from '../resources/index.js'
import { validator } from '../schema/validators.js'
import { refuseBeyondCaps, type ReadBudget } from './budget.js'
import type { ListPrefetch } from './prefetch.js'
import type { Requester } from './requester.js'
import { pageTotalOf, refuseUncountedPages } from './pages.js'

/** List pages read at once; the client's own limiter decides how many requests are really in flight. */
const PAGES_AT_ONCE = 64

const statusOf = (error: unknown) => (error as { status?: number } | undefined)?.status
const unlisted = (error: unknown) => statusOf(error) === 404 || statusOf(error) === 405

/**
 * What reading a list needs to know of it: a kind's list, or the team list (read to turn names
 * into ids), which are read alike. `instead`: what to do when the service does not list it.
 */
export type Listed = Pick<ResourceKind, 'listPath' | 'responseValidator'> & { name: ResourceKind['name'] | 'team'; instead?: string }

export interface ListPage {
  pageTotal: number
  /** The service's count of resources, when it says. */
  count?: number
  results: unknown[]
}

/**
 * Walks the list of one kind: page 1, then (once page_total is known and credible) the other
 * pages, a bounded number at a time, each handed to `onItem` as it arrives and then let go.
 */
export class ListReader {
  private readonly how: string
  private readonly seenPages = new Map<string, number>()
  private results = 0
  private failure: unknown
  /** 404 or 405: the service has no list of this kind. */
  unlistedStatus?: number
  /** Page 1's count of resources, when the service says. */
  private firstCount?: number
  /** What page 1 says of the list's length (for refuseUncountedPages where the whole list is needed). */
  firstBody?: unknown
  /**
   * A page counted other resources than page 1 did: the list moved while it was read (a resource
   * added or deleted meanwhile shifts the later pages, and one may slip onto a page already read).
   */
  moved = false
  /** The first page after page 1 the service answered 404 for: the list shrank below it while it was read (`moved` too). */
  vanished?: number

  constructor(
    private readonly kind: Listed,
    private readonly client: Requester,
    private readonly budget: ReadBudget,
    private readonly pageLength: number,
    private readonly onItem: (item: unknown) => void,
    /** Pages read ahead while the configuration was loading, taken instead of asking again. */
    private readonly prefetch?: ListPrefetch,
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
    const { page_total, count, next } = body as { page_total?: unknown; count?: unknown; next?: unknown }
    this.firstBody = { page_total, count, next }
    refuseBeyondCaps(this.kind, page, this.budget.limits, this.pageLength)
    this.firstCount = page.count
    return page
  }

  /**
   * Pages 2 to `last`, at most PAGES_AT_ONCE in flight, each fetched as soon as a slot and room
   * in the run's queue allow, not after the page before it was taken; the first failure stops
   * the others from starting. Resolves once every page is taken.
   */
  async rest(last: number): Promise<void> {
    let next = 2
    const taken: Promise<void>[] = []
    const worker = async () => {
      while (this.failure === undefined && next <= last) {
        const n = next++
        try {
          await this.budget.taking.room()
          if (this.failure !== undefined) return
          const page = this.check(await this.fetch(n))
          if (page.count !== this.firstCount) this.moved = true
          taken.push(this.take(n, page))
        } catch (error) {
          // Past the end of a list that shrank since page 1 (DRF answers 404 "Invalid page."): the list moved.
          if (statusOf(error) === 404) {
            this.moved = true
            this.vanished ??= n
            continue
          }
          this.failure ??= error
        }
      }
    }
    await Promise.all(Array.from({ length: Math.min(PAGES_AT_ONCE, Math.max(0, last - 1)) }, worker))
    await Promise.all(taken)
    if (this.failure !== undefined) throw this.failure
  }

  private async fetch(n: number): Promise<unknown> {
    const request = { query: { page: n, length: this.pageLength }, resource: `the ${this.kind.name} list` }
    // A page read ahead is handed to the client as the answer to this request (the tally counts it).
    const ahead = this.prefetch?.take(this.kind, n, this.pageLength)
    const body = await (ahead ? (this.client.readAhead?.(ahead, 'GET', this.kind.listPath, request) ?? ahead) : this.client.request<unknown>('GET', this.kind.listPath, request))
    this.budget.spend(this.client, body, this.how)
    return body
  }

  private check(body: unknown): ListPage {
    const validate = validator('listPage')
    if (!validate(body)) throw new ScansyncError(`the service's answer to ${this.how} is not a list page`)
    const page = body as { count?: number; results: unknown[] }
    return { pageTotal: pageTotalOf(body), count: page.count, results: page.results }
  }

  /**
   * Hands the results of page `n` to the run's queue, once the caps and the repeated-page check
   * pass (those throw at once); resolves once they are taken. A failure while taking stops the
   * pages not yet fetched.
   */
  take(n: number, page: ListPage): Promise<void> {
    this.results += page.results.length
    if (this.results > this.budget.limits.maxResults) {
      throw new ScansyncError(`${this.how}: the ${this.kind.name} list holds more than ${this.budget.limits.maxResults} results, the most scansync reads; stopped reading`)
    }
    const signature = unoptimisedPageSignature(page.results)
    if (signature !== undefined) {
      const earlier = this.seenPages.get(signature)
      if (earlier !== undefined) {
        throw new ScansyncError(`${this.how}: page ${Math.max(n, earlier)} of the ${this.kind.name} list repeats page ${Math.min(n, earlier)}: the service is not paging; stopped reading`)
      }
      this.seenPages.set(signature, n)
    }
    return this.budget.taking.add(page.results, this.onItem).catch((error: unknown) => {
      this.failure ??= error
      throw error
    })
  }
}

/**
 * The ids of a page's results in order, hashed; undefined for an empty page (those may well repeat).
 * `unoptimised…`: runs once a page; V8's optimising compiler leaves it alone (bin/v8-flags.js).
 */
function unoptimisedPageSignature(results: unknown[]): string | undefined {
  if (results.length === 0) return undefined
  const hash = createHash('sha1')
  for (const item of results) hash.update(`${isObject(item) ? String(item.id) : JSON.stringify(item)}\n`)
  return hash.digest('base64')
}
