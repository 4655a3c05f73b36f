import type { JsonObject } from '../core/types.js'
import { ScansyncError } from '../core/errors.js'
import type { ResourceKind } from '../resources/kind.js'
import { isObject } from '../core/json.js'
import { validator, type ValidatorName } from '../schema/validators.js'

/** What reading needs of the HTTP client. */
export interface Requester {
  request<T = unknown>(method: 'GET', path: string, options?: { query?: Record<string, string | number>; resource?: string }): Promise<T>
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
}

const RESPONSE_VALIDATOR: Record<string, ValidatorName> = { target: 'targetResponse', asset: 'assetResponse', agent: 'agentResponse' }

const statusOf = (error: unknown) => (error as { status?: number } | undefined)?.status

/** Checks that a body is the resource asked for, read tolerantly (unknown fields are fine). */
function asResource(kind: ResourceKind, id: string, body: unknown, how: string): JsonObject {
  const validate = validator(RESPONSE_VALIDATOR[kind.name])
  if (!isObject(body) || body.id !== id || !validate(body)) {
    const problem = !isObject(body) || body.id !== id ? 'is not that resource' : `has an unexpected shape (${validate.errors?.[0]?.instancePath || '/'} ${validate.errors?.[0]?.message})`
    throw new ScansyncError(`${kind.name} ${id}: the service's answer to ${how} ${problem}`)
  }
  return body
}

/**
 * Reads the live state of the declared resources of one kind: through the list pages (fetched in
 * parallel once page_total is known) when that takes fewer requests than one GET per id, else by
 * id. A declared id missing from the list is confirmed with a GET (a 404 then names it).
 */
export async function readLive(kind: ResourceKind, ids: string[], client: Requester, options: ReadOptions = {}): Promise<Map<string, JsonObject>> {
  const pageLength = options.pageLength ?? 100
  const found = new Map<string, JsonObject>()
  const seen = new Set<string>()
  const wanted = new Set(ids)
  const keep = (id: string, body: JsonObject) => {
    seen.add(id)
    if (options.onResource) options.onResource(id, body)
    else found.set(id, body)
    options.onProgress?.(1)
  }
  const take = (item: unknown, how: string) => {
    if (isObject(item) && typeof item.id === 'string' && wanted.has(item.id) && !seen.has(item.id)) keep(item.id, asResource(kind, item.id, item, how))
  }

  if (ids.length > 2) {
    const page = (n: number) =>
      client.request<unknown>('GET', kind.listPath, { query: { page: n, length: pageLength }, resource: `the ${kind.name} list` })
    let first: unknown
    try {
      first = await page(1)
    } catch (error) {
      if (statusOf(error) !== 404 && statusOf(error) !== 405) throw error
    }
    if (first !== undefined) {
      const pageTotal = listPage(kind, first)
      pageTotal.results.forEach((item) => take(item, `GET ${kind.listPath}`))
      const remainingPages = Math.max(0, pageTotal.pageTotal - 1)
      if (remainingPages > 0 && remainingPages <= wanted.size - seen.size) {
        // Each page is taken as it arrives and then let go: holding every page until the last came
        // would hold the whole account in memory.
        const takePage = (body: unknown) => listPage(kind, body).results.forEach((item) => take(item, `GET ${kind.listPath}`))
        await settleAll(Array.from({ length: remainingPages }, (_, i) => page(i + 2).then(takePage)))
      }
    }
  }

  const missing = ids.filter((id) => !seen.has(id))
  const bodies = await settleAll(
    missing.map((id) => client.request<unknown>('GET', kind.itemPath(id), { resource: `${kind.name} ${id}` })),
  )
  missing.forEach((id, i) => keep(id, asResource(kind, id, bodies[i], `GET ${kind.itemPath(id)}`)))
  return found
}

function listPage(kind: ResourceKind, body: unknown): { pageTotal: number; results: unknown[] } {
  const validate = validator('listPage')
  if (!validate(body)) throw new ScansyncError(`the service's answer to GET ${kind.listPath} is not a list page`)
  const page = body as { page_total?: number; count?: number; length?: number; results: unknown[] }
  const pageTotal = page.page_total ?? (page.count !== undefined && page.length ? Math.ceil(page.count / page.length) : 1)
  return { pageTotal, results: page.results }
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
    const error = new ScansyncError(`${failures.length} reads failed:\n  ${shown}${more}`)
    throw error
  }
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value)
}

export interface ReadAllOptions extends ReadOptions {
  /** Called once the first page tells how many resources there are, before the other pages are read. */
  onTotal?(count: number): void | Promise<void>
}

/**
 * Reads every resource of one kind through the list pages: page 1, then the other pages in
 * parallel once page_total is known. Sorted by id; a resource met on two pages (the list moved
 * while it was read) counts once.
 */
export async function readAll(kind: ResourceKind, client: Requester, options: ReadAllOptions = {}): Promise<JsonObject[]> {
  const pageLength = options.pageLength ?? 100
  const how = `GET ${kind.listPath}`
  const page = (n: number) => client.request<unknown>('GET', kind.listPath, { query: { page: n, length: pageLength }, resource: `the ${kind.name} list` })
  let first: unknown
  try {
    first = await page(1)
  } catch (error) {
    if (statusOf(error) === 404 || statusOf(error) === 405) {
      throw new ScansyncError(`the service does not list ${kind.name}s (${how} answered ${statusOf(error)}); name them with --id instead`)
    }
    throw error
  }
  const firstPage = listPage(kind, first)
  const count = (first as { count?: number }).count
  await options.onTotal?.(typeof count === 'number' ? count : firstPage.results.length * firstPage.pageTotal)
  const found = new Map<string, JsonObject>()
  const take = (item: unknown) => {
    const id = isObject(item) && typeof item.id === 'string' ? item.id : undefined
    if (id === undefined) throw new ScansyncError(`the service's answer to ${how} holds a ${kind.name} without an id`)
    if (found.has(id)) return
    found.set(id, asResource(kind, id, item, how))
    options.onProgress?.(1)
  }
  firstPage.results.forEach(take)
  const rest = await settleAll(Array.from({ length: Math.max(0, firstPage.pageTotal - 1) }, (_, i) => page(i + 2)))
  for (const body of rest) listPage(kind, body).results.forEach(take)
  return [...found.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((id) => found.get(id)!)
}
