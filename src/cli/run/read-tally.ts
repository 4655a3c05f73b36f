import { buildRequestTarget, checkBaseUrl, type ServiceClient } from '../../client/index.js'
import { ScansyncError } from '../../core/errors.js'
import type { Requester } from '../../live/read.js'
import { KINDS } from '../../resources/index.js'

/** The command that lists the ids the service has of these kinds: the next step after an id it does not have. */
const listIdsCommand = (kinds: readonly string[]): string => kinds.map((kind) => `scansync import --kind ${kind} --all`).join(' or ')

/** The next step after an id the service does not have (plan, apply and import say it alike). */
export const listIdsHint = (kinds: readonly string[], to: 'To' | 'to' = 'To'): string => `${to} list the ids the service has, run: ${listIdsCommand(kinds)}`

/**
 * The reads of one run, counted: when every one of them was a 404 and the target list is not
 * found either, the ids are not what is wrong, the base URL is (a missing or extra /api/v1), and
 * that is what the user is told.
 */
export class ReadTally {
  private answered = 0
  private notFound = 0
  /** Requests sent so far: the first URL tried is the first one sent of those that got a 404, whatever the order of the answers. */
  private sent = 0
  private firstNotFound?: { order: number; url: string }

  constructor(
    private readonly client: Pick<ServiceClient, 'request'> & Partial<Pick<ServiceClient, 'stats'>>,
    private readonly apiUrl: string,
  ) {
    // The client's own count of bytes read (the same object, growing): without it the reader
    // would serialise every answer again to count it.
    this.requester.stats = client.stats
  }

  /** The client to read through; a page read ahead that a reader takes counts as a request it sent then. */
  readonly requester: { -readonly [K in keyof Requester]: Requester[K] } = {
    request: async <T>(method: 'GET', path: string, options?: Parameters<ServiceClient['request']>[2]): Promise<T> =>
      this.count(this.client.request<T>(method, path, options), method, path, options?.query),
    readAhead: async <T>(answer: Promise<T>, method: 'GET', path: string, options?: { query?: Record<string, string | number> }): Promise<T> =>
      this.count(answer, method, path, options?.query),
  }

  private async count<T>(answer: Promise<T>, method: string, path: string, query?: Record<string, string | number>): Promise<T> {
    const order = this.sent++
    try {
      const value = await answer
      this.answered++
      return value
    } catch (error) {
      if ((error as { status?: number }).status === 404) {
        this.notFound++
        if (this.firstNotFound === undefined || order < this.firstNotFound.order) this.firstNotFound = { order, url: `${method} ${this.urlOf(path, query)}` }
      } else if ((error as { status?: number }).status !== undefined) {
        this.answered++
      }
      throw error
    }
  }

  /**
   * An error saying the base URL is probably wrong, when every read was a 404 and a list that
   * exists under the right base URL is not found either; else `error` as it is (the ids are wrong).
   */
  async explain(error: unknown): Promise<unknown> {
    if (this.answered > 0 || this.notFound === 0) return error
    try {
      await this.client.request('GET', KINDS.target.listPath, { query: { page: 1, length: 1 } })
      return error
    } catch (probe) {
      if ((probe as { status?: number }).status !== 404) return error
    }
    return new ScansyncError(
      `every read got 404 Not Found (${this.notFound} ${this.notFound === 1 ? 'request' : 'requests'}): the service URL ${this.apiUrl} is probably wrong (a missing or extra path such as /api/v1), not the ids. ` +
        `The first URL tried: ${this.firstNotFound?.url}. Check --api-url or SCANSYNC_API_URL.`,
    )
  }

  private urlOf(path: string, query?: Record<string, string | number>): string {
    try {
      const base = checkBaseUrl(this.apiUrl, { insecureHttp: true })
      return new URL(buildRequestTarget(base, path, query), base.origin).href
    } catch {
      return path
    }
  }
}
