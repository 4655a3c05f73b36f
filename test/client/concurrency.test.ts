import { afterEach, describe, expect, it } from 'vitest'

import { cleanup, delay, json, setup } from './server.js'

afterEach(cleanup)

describe('concurrency', () => {
  it('never has more requests in flight than the parallelism', async () => {
    const { server, client } = await setup(async (_req, res) => {
      await delay(15)
      json(res, 200, { ok: true })
    }, { parallelism: 3 })
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => client.request('GET', `/targets/t${i}/`)))
    expect(results).toHaveLength(24)
    expect(server.maxInFlight()).toBe(3)
    expect(client.stats).toMatchObject({ requests: 24, attempts: 24, maxInFlight: 3, concurrency: 3 })
  })

  it('uses the whole parallelism when it can (keep-alive pool with enough connections)', async () => {
    const { server, client } = await setup(async (_req, res) => {
      await delay(30)
      json(res, 200, {})
    }, { parallelism: 8 })
    await Promise.all(Array.from({ length: 16 }, () => client.request('GET', '/targets/')))
    expect(server.maxInFlight()).toBe(8)
    // Two waves of eight on eight connections: they were kept alive and reused.
    expect(new Set(server.received.map((r) => r.remotePort)).size).toBe(8)
  })

  it('backs off during a 429 storm and recovers afterwards', async () => {
    const storm = 16
    // The server runs in this process: it can look at the client's allowed concurrency as each request arrives.
    const allowedAtArrival: number[] = []
    let stats: { concurrency: number } | undefined
    const { server, client } = await setup(async (_req, res, { index }) => {
      allowedAtArrival.push(stats?.concurrency ?? 0)
      // Long enough that a busy machine still gets the whole first wave out before any answer.
      await delay(60)
      if (index < storm) json(res, 429, { detail: 'Request was throttled.' }, { 'Retry-After': '0' })
      else json(res, 200, { ok: true })
    }, { parallelism: 8, maxAttempts: 10 })
    stats = client.stats
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => client.request('GET', `/targets/t${i}/`)))
    expect(results).toHaveLength(40)
    // The first wave used all eight slots; after the first 429s no more than four at once, down to one.
    expect(server.received.slice(0, 8).map((r) => r.inFlight)).toContain(8)
    expect(Math.max(...server.received.slice(8, 24).map((r) => r.inFlight))).toBeLessThanOrEqual(4)
    expect(Math.min(...allowedAtArrival)).toBe(1)
    // Successes gave the slots back, one at a time.
    expect(client.stats.concurrency).toBeGreaterThan(4)
    expect(client.stats).toMatchObject({ requests: 40, attempts: 56, retries: 16, maxInFlight: 8 })
  })
})
