// A small HTTP server in front of the emulator, for services that behave in ways the emulator has
// no switch for (a list endpoint that answers 404 or 405, a write that drops a field).
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll } from 'vitest'

export interface ProxyRequest {
  method: string
  /** Without the query string. */
  path: string
  /** Path and query, as received. */
  url: string
  body: string
}

export interface ProxyResponse {
  status: number
  body: string
  contentType?: string
  /** More response headers (a redirect's location). */
  headers?: Record<string, string>
}

/** Decides the answer of one request; `forward` passes it on (with another body if given). */
export type ProxyHandler = (request: ProxyRequest, forward: (body?: string) => Promise<ProxyResponse>) => Promise<ProxyResponse>

const servers: Array<() => Promise<void>> = []
afterAll(async () => {
  await Promise.all(servers.splice(0).map((close) => close()))
})

/** Starts a proxy to `upstream` on 127.0.0.1; closed after the test file. */
export async function startProxy(upstream: string, handler: ProxyHandler): Promise<{ url: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', async () => {
      const url = req.url ?? '/'
      const request: ProxyRequest = { method: req.method ?? 'GET', url, path: url.split('?')[0], body: Buffer.concat(chunks).toString('utf8') }
      const forward = async (body = request.body): Promise<ProxyResponse> => {
        const headers: Record<string, string> = {}
        for (const name of ['authorization', 'content-type', 'accept', 'user-agent']) {
          const value = req.headers[name]
          if (typeof value === 'string') headers[name] = value
        }
        const answer = await fetch(upstream + url, { method: request.method, headers, body: body === '' ? undefined : body })
        return { status: answer.status, body: await answer.text(), contentType: answer.headers.get('content-type') ?? 'application/json' }
      }
      try {
        const answer = await handler(request, forward)
        res.writeHead(answer.status, { 'content-type': answer.contentType ?? 'application/json', ...answer.headers })
        res.end(answer.body)
      } catch {
        res.destroy()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  servers.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  )
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

export const LIST_PATHS = new Set(['/targets/', '/discovery/assets/', '/scanning-agents/'])

/**
 * A proxy answering as a service that shapes one kind's resources otherwise: each resource in the
 * successful answers under `prefix` (a list page's results, or the one resource) passed through `reshape`.
 */
export function reshapingProxy(upstream: string, prefix: string, reshape: (resource: Record<string, unknown>) => void): Promise<{ url: string }> {
  return startProxy(upstream, async (request, forward) => {
    const answer = await forward()
    if (!request.path.startsWith(prefix) || answer.status !== 200) return answer
    const parsed = JSON.parse(answer.body) as Record<string, unknown>
    if (Array.isArray(parsed.results)) for (const resource of parsed.results) reshape(resource as Record<string, unknown>)
    else if (typeof parsed.id === 'string') reshape(parsed)
    return { ...answer, body: JSON.stringify(parsed) }
  })
}

/** A value nested 20,000 arrays deep: deeper than any resource, and than a recursive walk's stack. */
export const DEEP_VALUE = '['.repeat(20_000) + ']'.repeat(20_000)

/** A proxy (a hostile service) putting DEEP_VALUE first in every target's blacklist, in the GET answers whose path `answers` selects. */
export function deepBlacklistProxy(upstream: string, answers: (path: string) => boolean): Promise<{ url: string }> {
  return startProxy(upstream, async (request, forward) => {
    const answer = await forward()
    if (request.method !== 'GET' || !answers(request.path)) return answer
    return { ...answer, body: answer.body.replace(/"blacklist":\[\]/g, `"blacklist":[${DEEP_VALUE}]`).replace(/"blacklist":\[(?!\[)/g, `"blacklist":[${DEEP_VALUE},`) }
  })
}
