import type { ResourceKind } from '../resources/index.js'
import { READ_LIMITS, refuseBeyondCaps, type ReadLimits } from './budget.js'
import { pageTotalOf } from './pages.js'
import type { Requester } from './requester.js'

/**
 * List pages read ahead, while the configuration is still being loaded: page 1 of each kind the
 * configuration declares, then (once page 1 tells page_total) the other pages, at most
 * `maxPages` in all. The reader takes them instead of asking again; a page nobody takes (the
 * configuration turned out invalid, or the kind is read by id) is dropped. Only reads: nothing is
 * ever written before the configuration is valid and the plan confirmed.
 */
export class ListPrefetch {
  private readonly pages = new Map<string, Promise<unknown>>()
  private started = 0
  private stopped = false
  /** The client's count of bytes read before the first page was asked for. */
  private readonly bytesBefore?: number

  constructor(
    kinds: readonly ResourceKind[],
    private readonly client: Requester,
    readonly pageLength = 100,
    /** Bounds the pages held before the reader takes them (memory, and requests that may go unused). */
    private readonly maxPages = 32,
    /** The reader's caps: a page 1 the reader refuses (it then says nothing more was read) starts no other page. */
    private readonly limits: Readonly<ReadLimits> = READ_LIMITS,
  ) {
    this.bytesBefore = client.stats?.bytesRead
    for (const kind of kinds) {
      this.start(kind, 1)?.then(
        (body) => {
          const total = pageTotalOf(body)
          try {
            refuseBeyondCaps(kind, { pageTotal: total, count: countOf(body) }, this.limits, this.pageLength)
          } catch {
            // The reader refuses page 1 as well (and says nothing more was read): no other page is asked for.
            return
          }
          for (let n = 2; n <= total; n++) if (!this.start(kind, n)) break
        },
        () => undefined,
      )
    }
  }

  /** Page `n` of `kind` if it was read ahead at this page length; each page is handed out once. */
  take(kind: { name: string }, n: number, pageLength: number): Promise<unknown> | undefined {
    if (pageLength !== this.pageLength) return undefined
    const key = `${kind.name}:${n}`
    const page = this.pages.get(key)
    this.pages.delete(key)
    return page
  }

  /**
   * The count of `client` (by its stats: the client that read ahead, or a requester wrapping
   * it) before anything was read ahead, for the run's budget to count from (ReadBudget.watch):
   * the pages read ahead are the run's answers; undefined for another client.
   */
  readFrom(client: Requester): number | undefined {
    return client.stats !== undefined && client.stats === this.client.stats ? this.bytesBefore : undefined
  }

  /** No more reading ahead; what was not taken is let go. */
  stop(): void {
    this.stopped = true
    this.pages.clear()
  }

  private start(kind: ResourceKind, n: number): Promise<unknown> | undefined {
    if (this.stopped || this.started >= this.maxPages) return undefined
    this.started++
    const page = this.client.request<unknown>('GET', kind.listPath, { query: { page: n, length: this.pageLength }, resource: `the ${kind.name} list` })
    // A page nobody takes may fail unseen; the reader that takes it gets its error.
    page.catch(() => undefined)
    this.pages.set(`${kind.name}:${n}`, page)
    return page
  }
}

/** The service's count of resources, when page 1 says. */
function countOf(body: unknown): number | undefined {
  const count = body !== null && typeof body === 'object' ? (body as { count?: unknown }).count : undefined
  return typeof count === 'number' ? count : undefined
}
