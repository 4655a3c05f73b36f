// The one reader against broken or hostile list answers: every cap ends the read with a clear
// error, quickly, after a bounded number of requests.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { describe, expect, it } from 'vitest'
import { runImport } from '../../src/cli/run/import.js'
import { runPlan } from '../../src/cli/run/plan.js'
import { ListPrefetch, ReadBudget, readAll, readDeclared, readLive, READ_LIMITS, type Requester } from '../../src/live/read.js'
import { KINDS } from '../../src/resources/index.js'
import { createClient } from '../../src/client/index.js'
import { startServer } from '../client/server.js'
import { captureIo } from '../helpers/cli.js'
import { temporaryDirectory } from '../helpers/emulator.js'

type Query = Record<string, string | number>
type Answer = (path: string, query: Query | undefined) => unknown

/** A service in-process: answers each GET with `answer`, counting the requests. */
function fakeService(answer: Answer): Requester & { requests: number } {
  const service = {
    requests: 0,
    async request<T>(_method: 'GET', path: string, options?: { query?: Query }): Promise<T> {
      service.requests++
      return answer(path, options?.query) as T
    },
  }
  return service
}

const agents = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: `ag-${String(from + i).padStart(6, '0')}`, name: `agent ${from + i}` }))

/** An honest list of `total` agents, `length` a page. */
const honestList =
  (total: number): Answer =>
  (path, query) => {
    const length = Number(query?.length ?? 100)
    const page = Number(query?.page ?? 1)
    if (path !== KINDS.agent.listPath) return { id: path.split('/')[2], name: 'by id' }
    return { count: total, page_total: Math.ceil(total / length), page, length, results: agents((page - 1) * length, Math.max(0, Math.min(length, total - (page - 1) * length))) }
  }

describe('readAll and readLive', () => {
  it('read an honest list whole, sorted by id, page by page', async () => {
    const service = fakeService(honestList(250))
    const all = await readAll(KINDS.agent, service)
    expect(all).toHaveLength(250)
    expect(all[0].id).toBe('ag-000000')
    expect(all[249].id).toBe('ag-000249')
    expect(service.requests).toBe(3)
  })

  it('confirm by GET a declared id the list does not hold', async () => {
    const service = fakeService(honestList(5))
    const found = await readLive(KINDS.agent, ['ag-000001', 'ag-000002', 'ag-999999'], service)
    expect([...found.keys()].sort()).toEqual(['ag-000001', 'ag-000002', 'ag-999999'])
    expect(found.get('ag-999999')?.name).toBe('by id')
  })

  it('refuse a page_total of 1e9 at once (import --all)', async () => {
    const service = fakeService(() => ({ count: 1e9 * 100, page_total: 1e9, results: agents(0, 100) }))
    await expect(readAll(KINDS.agent, service)).rejects.toThrow(/says the agent list has 1000000000 pages, more than the 10000 scansync reads/)
    expect(service.requests).toBe(1)
  })

  it('refuse a page_total of 1e9 at once (plan)', async () => {
    const service = fakeService(() => ({ page_total: 1e9, results: agents(0, 100) }))
    await expect(readLive(KINDS.agent, ['ag-000001', 'ag-000002', 'ag-000003'], service)).rejects.toThrow(/1000000000 pages/)
    expect(service.requests).toBe(1)
  })

  it('refuse a count beyond the results cap', async () => {
    const service = fakeService(() => ({ count: 5_000_000, page_total: 1, results: agents(0, 10) }))
    await expect(readAll(KINDS.agent, service)).rejects.toThrow(/says it has 5000000 agents, more than the 1000000 scansync reads/)
  })

  it('stop on a repeated page, after a bounded number of requests', async () => {
    // A service that ignores `page`: every page is page 1, for 9,000 pages.
    const service = fakeService(() => ({ page_total: 9_000, results: agents(0, 100) }))
    await expect(readAll(KINDS.agent, service)).rejects.toThrow(/page \d+ of the agent list repeats page 1: the service is not paging; stopped reading/)
    expect(service.requests).toBeLessThan(200)
  })

  it('stop once the results pass the cap', async () => {
    // Pages of 1,000 results (more than asked for): the cap, not the page count, stops it.
    let page = 0
    const service = fakeService(() => ({ page_total: 100, results: agents(page++ * 1000, 1000) }))
    await expect(readAll(KINDS.agent, service, { limits: { maxResults: 5_000 } })).rejects.toThrow(/the agent list holds more than 5000 results, the most scansync reads; stopped reading/)
    expect(service.requests).toBeLessThan(100)
  })

  it('stop once the run has read more bytes than its cap, across kinds', async () => {
    const budget = new ReadBudget({ ...READ_LIMITS, maxBytes: 20_000 })
    const service = fakeService(honestList(20_000))
    const ids = agents(0, 20_000).map((a) => a.id)
    await expect(readLive(KINDS.agent, ids, service, { budget })).rejects.toThrow(/add up to more than 19\.5 KB in this run, the most scansync reads; stopped reading/)
    // Page 1, then at most one batch of pages in flight: not the 200 pages of the list.
    expect(service.requests).toBeLessThan(100)
  })

  it('readDeclared reads each kind of the declared resources, handing each over', async () => {
    const service = fakeService(honestList(10))
    const seen: string[] = []
    await readDeclared(
      [
        { kind: 'agent', id: 'ag-000003' },
        { kind: 'agent', id: 'ag-000004' },
      ],
      service,
      { onResource: (kind, id) => seen.push(`${kind.name} ${id}`) },
    )
    expect(seen.sort()).toEqual(['agent ag-000003', 'agent ag-000004'])
  })
})

describe('import --all and plan against a lying page_total', () => {
  const TOKEN = 'lying-Tok3n-0c5a1e77'
  const liar = (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('content-type', 'application/json')
    const url = new URL(req.url ?? '/', 'http://x')
    const id = url.pathname.split('/').filter(Boolean).pop() ?? ''
    res.end(JSON.stringify(url.pathname === '/targets/' ? { count: 1e11, page_total: 1e9, results: [] } : { id, site: { name: id, url: 'https://example.com/' } }))
  }

  it('the bytes cap counts what the HTTP client read (no measuring of its own)', async () => {
    const big = 'x'.repeat(10_000)
    const server = await startServer((req, res) => {
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page'))
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ page_total: 500, results: [{ id: `ag-${page}`, name: big }] }))
    })
    const client = createClient({ baseUrl: server.url, token: TOKEN, parallelism: 2, userAgent: 'scansync-test' })
    try {
      await expect(readAll(KINDS.agent, client, { limits: { maxBytes: 100_000 } })).rejects.toThrow(/add up to more than 97\.7 KB in this run/)
      expect(client.stats.bytesRead).toBeGreaterThan(100_000)
      expect(server.received.length).toBeLessThan(100)
    } finally {
      await client.close()
      await server.close()
    }
  })

  it('import --all: a clear error, one request, little memory', async () => {
    const server = await startServer(liar)
    try {
      const heapBefore = process.memoryUsage().heapUsed
      const io = captureIo({ env: { SCANSYNC_API_URL: server.url, SCANSYNC_API_TOKEN: TOKEN } })
      const code = await runImport({ kinds: ['target'], all: true }, io)
      expect(code).toBe(1)
      expect(io.err()).toMatch(/says the target list has 1000000000 pages, more than the 10000 scansync reads/)
      expect(server.received).toHaveLength(1)
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024)
    } finally {
      await server.close()
    }
  })

  it('plan: a clear error, one request', async () => {
    const server = await startServer(liar)
    const dir = temporaryDirectory('scansync-liar-', {
      'targets.yaml': 'targets:\n' + ['t1', 't2', 't3'].map((id) => `  - id: ${id}\n    site: { name: ${id} }\n`).join(''),
    })
    try {
      const io = captureIo({ env: { SCANSYNC_API_URL: server.url, SCANSYNC_API_TOKEN: TOKEN }, cwd: dir })
      const code = await runPlan({ mode: 'plan', paths: [dir], format: 'text' }, io)
      expect(io.err()).toMatch(/says the target list has 1000000000 pages/)
      expect(code).toBe(1)
      expect(server.received).toHaveLength(1)
    } finally {
      await server.close()
    }
  })
})

describe('pages read ahead (ListPrefetch) are read like any other', () => {
  /** A target list of 4 pages of about 30 KB each; T1 to T3 on page 4. */
  const fourPages = (req: IncomingMessage, res: ServerResponse) => {
    const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page'))
    const ids = page === 4 ? ['T1', 'T2', 'T3'] : [`P${page}a`, `P${page}b`, `P${page}c`]
    const padding = 'x'.repeat(10_000)
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify({ count: 12, page_total: 4, results: ids.map((id) => ({ id, site: { name: `${id} ${padding}`, url: 'https://example.com/' } })) }))
  }
  const declared = ['T1', 'T2', 'T3'].map((id) => ({ kind: 'target' as const, id }))

  it('their bytes count against the read cap, as when they are read by the reader', async () => {
    for (const ahead of [false, true]) {
      const server = await startServer(fourPages)
      const client = createClient({ baseUrl: server.url, token: 'cap-Tok3n-5b1d', parallelism: 4, userAgent: 'scansync-test' })
      try {
        let prefetch: ListPrefetch | undefined
        if (ahead) {
          // Every page read ahead has arrived before the plan reads.
          const pages: Promise<unknown>[] = []
          const recording: Requester = { stats: client.stats, request: (...args) => (pages.push(client.request(...args)), pages.at(-1)!) as never }
          prefetch = new ListPrefetch([KINDS.target], recording)
          await pages[0]
          await Promise.all(pages)
          expect(pages).toHaveLength(4)
        }
        const read: string[] = []
        await expect(readDeclared(declared, client, { prefetch, limits: { maxBytes: 100_000 }, onResource: (_kind, id) => read.push(id) })).rejects.toThrow(
          /GET \/targets\/: the service's answers add up to more than 97\.7 KB in this run/,
        )
        expect(client.stats.bytesRead).toBeGreaterThan(100_000)
        expect(server.received).toHaveLength(4)
      } finally {
        await client.close()
        await server.close()
      }
    }
  })

  it.each([
    ['more pages than scansync reads', { count: 2_000_000, page_total: 20_000 }, /says the agent list has 20000 pages, more than the 10000 scansync reads \(100 a page\); nothing more was read/],
    ['more results than scansync reads', { count: 5_000_000, page_total: 30 }, /says it has 5000000 agents, more than the 1000000 scansync reads; nothing more was read/],
  ])('a first page saying %s: "nothing more was read" holds, read ahead or not', async (_what, claim, refusal) => {
    for (const ahead of [false, true]) {
      const service = fakeService((_path, query) => ({ ...claim, page: Number(query?.page), results: agents(0, 100) }))
      const prefetch = ahead ? new ListPrefetch([KINDS.agent], service) : undefined
      await expect(readLive(KINDS.agent, ['ag-000001', 'ag-000002', 'ag-000003'], service, { prefetch })).rejects.toThrow(refusal)
      // Whatever the read ahead could still start once page 1 arrived.
      await new Promise((resolve) => setImmediate(resolve))
      expect(service.requests).toBe(1)
    }
  })
})
