import { ScansyncError } from '../core/errors.js'

// What a list's page 1 says of the pages it has: the one reading of it for every list (the kinds', read ahead or not, and the teams').

/**
 * How many pages a list has, as its page 1 says: `page_total`; else `count` over the page size,
 * which is the number of results page 1 holds when it is not the last page (a page before the last
 * is full, whatever `length` says: a service paging by a size of its own may answer the length
 * asked for), or else `length`; else 1. A page 1 holding `count` results is the only page.
 */
export function pageTotalOf(body: unknown): number {
  if (body === null || typeof body !== 'object') return 1
  const page = body as { page_total?: unknown; count?: unknown; length?: unknown; results?: unknown }
  if (typeof page.page_total === 'number') return page.page_total
  if (typeof page.count !== 'number') return 1
  const held = Array.isArray(page.results) ? page.results.length : 0
  // A page 1 holding every resource counted is the only page, whatever `length` says.
  if (held > 0 && page.count <= held) return 1
  const size = held > 0 ? held : typeof page.length === 'number' && page.length > 0 ? page.length : 0
  return size > 0 ? Math.ceil(page.count / size) : 1
}

/** Whether page 1 links a next page (`next`) but says neither `page_total` nor `count` (cursor pages). */
export function pagesUncounted(body: unknown): boolean {
  const page = (body ?? {}) as { page_total?: unknown; count?: unknown; next?: unknown }
  return typeof page.page_total !== 'number' && typeof page.count !== 'number' && typeof page.next === 'string' && page.next !== ''
}

/**
 * Refuses a page 1 that links a next page (`next`) but says neither `page_total` nor `count`
 * (cursor pages), where the whole list is needed: pages are read by number, and how many there
 * are cannot be told, so reading on would stop at page 1 in silence.
 */
export function refuseUncountedPages(body: unknown, what: string, how: string): void {
  if (pagesUncounted(body)) {
    throw new ScansyncError(`${how}: page 1 of the ${what} list links a next page but says neither page_total nor count, so scansync cannot tell how many pages to read (it reads ?page=N); stopped reading`)
  }
}
