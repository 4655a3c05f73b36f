import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

import { afterEach, describe, expect, it } from 'vitest'

import {
  createClient,
  RetryAfterTooLongError,
  ScansyncError,
  ServiceUnavailableError,
  TimeoutError,
  UnexpectedResponseError,
} from '../../src/client/index.js'
import { cleanup, delay, json, rejection, setup, TOKEN } from './server.js'

afterEach(cleanup)

/** Milliseconds between the arrivals of consecutive requests. */
function gaps(arrivals: number[]): number[] {
  return arrivals.slice(1).map((at, i) => at - (arrivals[i] as number))
}

describe('429', () => {
  it('waits the Retry-After seconds, then succeeds', async () => {
    const arrivals: number[] = []
    const { client } = await setup((_req, res, { index }) => {
      arrivals.push(performance.now())
      if (index === 0) json(res, 429, { detail: 'Request was throttled.' }, { 'Retry-After': '1' })
      else json(res, 200, { ok: true })
    })
    expect(await client.request('GET', '/targets/a/')).toEqual({ ok: true })
    expect(gaps(arrivals)[0]).toBeGreaterThanOrEqual(950)
    expect(client.stats).toMatchObject({ requests: 1, attempts: 2, retries: 1 })
  })

  it('waits until a Retry-After HTTP date, then succeeds', async () => {
    const arrivals: number[] = []
    const { client } = await setup((_req, res, { index }) => {
      arrivals.push(performance.now())
      // HTTP dates have whole seconds: this one is 1 to 2 s away.
      if (index === 0) json(res, 429, {}, { 'Retry-After': new Date(Date.now() + 2000).toUTCString() })
      else json(res, 200, { ok: true })
    })
    expect(await client.request('GET', '/targets/a/')).toEqual({ ok: true })
    expect(gaps(arrivals)[0]).toBeGreaterThanOrEqual(900)
  })

  it('without Retry-After backs off and retries', async () => {
    const { server, client } = await setup((_req, res, { index }) => (index < 3 ? json(res, 429, {}) : json(res, 200, [1])))
    expect(await client.request('GET', '/targets/')).toEqual([1])
    expect(server.received).toHaveLength(4)
    expect(client.stats.retries).toBe(3)
  })

  it('a Retry-After above the ceiling fails at once with RetryAfterTooLongError', async () => {
    const { server, client } = await setup((_req, res) => json(res, 429, {}, { 'Retry-After': '3600' }))
    const started = performance.now()
    const error = await rejection(client.request('GET', '/targets/a/', { resource: 'target a' }))
    expect(performance.now() - started).toBeLessThan(2000)
    expect(error).toBeInstanceOf(RetryAfterTooLongError)
    expect(error).toBeInstanceOf(ServiceUnavailableError)
    expect(error.message).toBe('target a: the service asked to wait 3600 s before retrying (limit 120 s)')
    expect((error as RetryAfterTooLongError).retryAfterMs).toBe(3_600_000)
    expect(server.received).toHaveLength(1)
  })

  it('the ceiling is configurable', async () => {
    const { client } = await setup((_req, res) => json(res, 503, {}, { 'Retry-After': '2' }), { retryAfterCeilingMs: 1000 })
    const error = await rejection(client.request('GET', '/targets/a/'))
    expect(error).toBeInstanceOf(RetryAfterTooLongError)
    expect(error.message).toBe('GET /targets/a/: the service asked to wait 2 s before retrying (limit 1 s)')
  })
})

describe('5xx bursts', () => {
  it.each([502, 503, 504])('retries a burst of %i and then succeeds', async (status) => {
    const { server, client } = await setup((_req, res, { index }) => (index < 3 ? json(res, status, { detail: 'busy' }) : json(res, 200, { id: 'a' })))
    expect(await client.request('GET', '/targets/a/')).toEqual({ id: 'a' })
    expect(server.received).toHaveLength(4)
    expect(client.stats).toMatchObject({ requests: 1, attempts: 4, retries: 3 })
  })

  it('stops after maxAttempts', async () => {
    const { server, client } = await setup((_req, res) => json(res, 503, { detail: 'Down for maintenance.' }), { maxAttempts: 3 })
    const error = await rejection(client.request('GET', '/targets/a/', { resource: 'target a' }))
    expect(error).toBeInstanceOf(ServiceUnavailableError)
    expect(error.message).toBe('target a: service unavailable (HTTP 503) after 3 attempts: Down for maintenance.')
    expect(server.received).toHaveLength(3)
    expect(client.stats).toMatchObject({ requests: 1, attempts: 3, retries: 2 })
  })

  it('a 429 storm that never ends is a ServiceUnavailableError after maxAttempts', async () => {
    const { server, client } = await setup((_req, res) => json(res, 429, {}, { 'Retry-After': '0' }), { maxAttempts: 5 })
    const error = await rejection(client.request('GET', '/targets/a/'))
    expect(error).toBeInstanceOf(ServiceUnavailableError)
    expect(error.message).toBe('GET /targets/a/: service unavailable (HTTP 429) after 5 attempts')
    expect(server.received).toHaveLength(5)
  })
})

describe('connections and bodies', () => {
  it('retries after the connection is dropped', async () => {
    const { server, client } = await setup((req, res, { index }) => {
      if (index === 0) req.socket.destroy()
      else json(res, 200, { id: 'a' })
    })
    expect(await client.request('GET', '/targets/a/')).toEqual({ id: 'a' })
    expect(server.received).toHaveLength(2)
    expect(client.stats.retries).toBe(1)
  })

  it('retries a body cut off in transfer', async () => {
    const { server, client } = await setup((req, res, { index }) => {
      const text = JSON.stringify({ id: 'a', site: { name: 'long enough to cut' } })
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) })
      if (index === 0) {
        res.write(text.slice(0, 10))
        setTimeout(() => req.socket.destroy(), 20)
      } else {
        res.end(text)
      }
    })
    expect(await client.request('GET', '/targets/a/')).toEqual({ id: 'a', site: { name: 'long enough to cut' } })
    expect(server.received).toHaveLength(2)
  })

  it('retries a JSON body that ends too early, then gives up with UnexpectedResponseError', async () => {
    const { server, client } = await setup((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.end('{"id": "a", "site": {"na')
    }, { maxAttempts: 3 })
    const error = await rejection(client.request('GET', '/targets/a/', { resource: 'target a' }))
    expect(error).toBeInstanceOf(UnexpectedResponseError)
    expect(error.message).toBe('target a: the service answered HTTP 200 with a body cut off before its end on all 3 attempts')
    expect(server.received).toHaveLength(3)
  })

  it('a connection refused on every attempt is a ServiceUnavailableError', async () => {
    const probe = createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    const { port } = probe.address() as AddressInfo
    await new Promise<void>((resolve) => probe.close(() => resolve()))
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN, userAgent: 'scansync/0', maxAttempts: 3, backoff: { baseMs: 1, maxMs: 5 } })
    try {
      const error = await rejection(client.request('GET', '/targets/a/', { resource: 'target a' }))
      expect(error).toBeInstanceOf(ServiceUnavailableError)
      expect(error.message).toBe(`target a: could not reach the service at http://127.0.0.1:${port}: connection refused (ECONNREFUSED) (3 attempts)`)
      expect(client.stats).toMatchObject({ attempts: 3, retries: 2 })
    } finally {
      await client.close()
    }
  })
})

describe('timeouts', () => {
  it('a server that never answers gives a TimeoutError after the attempts', async () => {
    const { server, client } = await setup(() => {}, { timeoutMs: 150, maxAttempts: 2 })
    const started = performance.now()
    const error = await rejection(client.request('GET', '/targets/a/', { resource: 'target a' }))
    expect(error).toBeInstanceOf(TimeoutError)
    expect(error).toBeInstanceOf(ServiceUnavailableError)
    expect(error.message).toBe('target a: no complete answer from the service within 150 ms (2 attempts)')
    expect(server.received).toHaveLength(2)
    expect(performance.now() - started).toBeGreaterThanOrEqual(290)
  })

  it('a body slower than the timeout counts as a timeout, and the next attempt may succeed', async () => {
    const { server, client } = await setup((_req, res, { index }) => {
      res.writeHead(200, { 'Content-Type': 'application/json' })
      if (index === 0) res.write('{"id":') // and never more
      else res.end('{"id": "a"}')
    }, { timeoutMs: 150 })
    expect(await client.request('GET', '/targets/a/')).toEqual({ id: 'a' })
    expect(server.received).toHaveLength(2)
  })
})

describe('writes', () => {
  it('retries PATCH and PUT with the same body each time', async () => {
    const { server, client } = await setup((req, res, { index, body }) => {
      if (index % 3 === 0) json(res, 503, {})
      else if (index % 3 === 1) req.socket.destroy()
      else json(res, 200, JSON.parse(body))
    })
    const body = { site: { name: 'x', desc: 'ünïcode ✓' }, labels: ['a', 'b'] }
    expect(await client.request('PATCH', '/targets/a/', { body })).toEqual(body)
    expect(await client.request('PUT', '/scanning-agents/b/', { body })).toEqual(body)
    expect(server.received.map((r) => r.method)).toEqual(['PATCH', 'PATCH', 'PATCH', 'PUT', 'PUT', 'PUT'])
    expect(new Set(server.received.map((r) => r.body))).toEqual(new Set([JSON.stringify(body)]))
  })
})

describe('cancellation', () => {
  it('an aborted signal rejects at once with its reason, even during a backoff', async () => {
    const { server, client } = await setup((_req, res) => json(res, 429, {}, { 'Retry-After': '60' }))
    const controller = new AbortController()
    const pending = client.request('GET', '/targets/a/', { signal: controller.signal })
    while (server.received.length === 0) await delay(5)
    await delay(20)
    const reason = new Error('interrupted')
    controller.abort(reason)
    expect(await rejection(pending)).toBe(reason)
    expect(server.received).toHaveLength(1)
  })

  it('many requests can share one signal without listener warnings', async () => {
    const warnings: string[] = []
    const onWarning = (warning: Error): void => {
      warnings.push(warning.name)
    }
    process.on('warning', onWarning)
    try {
      const { client } = await setup(async (_req, res) => {
        await delay(5)
        json(res, 200, {})
      }, { parallelism: 4 })
      const controller = new AbortController()
      await Promise.all(Array.from({ length: 40 }, () => client.request('GET', '/targets/', { signal: controller.signal })))
      await delay(10)
    } finally {
      process.off('warning', onWarning)
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning')
  })

  it('close() ends requests in flight and refuses new ones', async () => {
    const { client } = await setup(() => {})
    const outcome = rejection(client.request('GET', '/targets/a/'))
    await delay(50)
    await client.close()
    const error = await outcome
    expect(error).toBeInstanceOf(ScansyncError)
    expect(error.message).toContain('closed')
    await expect(client.request('GET', '/targets/a/')).rejects.toThrow('closed')
  })
})
