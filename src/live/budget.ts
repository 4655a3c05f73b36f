import { ScansyncError } from '../core/errors.js'
import type { ResourceKind } from '../resources/index.js'
import type { Requester } from './requester.js'
import { TakeQueue } from './take-queue.js'

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

/**
 * Throws when page 1 of a list announces more pages or results than the caps allow. Called on
 * page 1 before any other page is asked for, by the reader and by the read-ahead alike
 * (ListPrefetch), so that "nothing more was read" holds either way.
 */
export function refuseBeyondCaps(
  // A list of a kind, or the team list (read to turn names into ids): a plain name and path.
  kind: { name: ResourceKind['name'] | 'team'; listPath: string },
  page: { pageTotal: number; count?: number },
  limits: Readonly<Pick<ReadLimits, 'maxPages' | 'maxResults'>>,
  pageLength: number,
): void {
  const how = `GET ${kind.listPath}`
  if (page.pageTotal > limits.maxPages) {
    throw new ScansyncError(`${how}: the service says the ${kind.name} list has ${page.pageTotal} pages, more than the ${limits.maxPages} scansync reads (${pageLength} a page); nothing more was read`)
  }
  if (page.count !== undefined && page.count > limits.maxResults) {
    throw new ScansyncError(`${how}: the service says it has ${page.count} ${kind.name}s, more than the ${limits.maxResults} scansync reads; nothing more was read`)
  }
}

/** The bytes a run has read so far; share one between the reads of a run so that the cap holds for the run. */
export class ReadBudget {
  /** Answers measured here (clients without stats). */
  private measured = 0
  /**
   * Each client's count when this budget first saw it, by the count itself (`client.stats`): a
   * requester wrapping a client (the read tally) shares its count, and so its baseline.
   */
  private readonly baselines = new WeakMap<object, number>()
  /** The run's one queue of list results waiting to be taken (every kind's). */
  readonly taking = new TakeQueue()
  constructor(readonly limits: Readonly<ReadLimits> = READ_LIMITS) {}

  /**
   * Called before a read starts: what the client read before is not this run's. `since`: the
   * client's count when the run's reads really began (pages read ahead, ListPrefetch.readFrom),
   * so that those count too.
   */
  watch(client: Requester, since?: number): void {
    if (client.stats && !this.baselines.has(client.stats)) this.baselines.set(client.stats, Math.min(since ?? Infinity, client.stats.bytesRead))
  }

  /** Counts an answer (the client's count when it keeps one: free; else the answer's JSON); throws once the run is over its cap. */
  spend(client: Requester, body: unknown, subject: string): void {
    const baseline = client.stats && this.baselines.get(client.stats)
    const read = client.stats && baseline !== undefined ? client.stats.bytesRead - baseline : (this.measured += JSON.stringify(body)?.length ?? 0)
    if (read > this.limits.maxBytes) {
      throw new ScansyncError(`${subject}: the service's answers add up to more than ${formatBytes(this.limits.maxBytes)} in this run, the most scansync reads; stopped reading`)
    }
  }
}

/** "1 GB", "512 KB". */
const formatBytes = (bytes: number): string =>
  bytes >= 1024 ** 3 ? `${Number((bytes / 1024 ** 3).toFixed(1))} GB` : bytes >= 1024 ** 2 ? `${Number((bytes / 1024 ** 2).toFixed(1))} MB` : bytes >= 1024 ? `${Number((bytes / 1024).toFixed(1))} KB` : `${bytes} bytes`
