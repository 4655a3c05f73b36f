import { request as httpRequest } from 'node:http'
import { describe, expect, it } from 'vitest'
import { parseFaultSpec, type Emulator, type FaultSpec } from '../../src/emulator/index.js'
import { AUTH, call, emulator, JSON_HEADERS } from './helpers.js'

const T = '/targets/TargetA11111/'

/** A raw HTTP/1.1 exchange on a fresh connection: what arrived, and how it ended. */
function exchange(em: Emulator, method: string, path: string, body?: unknown): Promise<{ status?: number; headers?: Record<string, unknown>; received: string; error?: string }> {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const url = new URL(em.url + path)
    let status: number | undefined
    let headers: Record<string, unknown> | undefined
    let received = ''
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers: { ...JSON_HEADERS, connection: 'close' }, agent: false }, (res) => {
      status = res.statusCode
      headers = res.headers
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (received += chunk))
      res.on('end', () => resolve({ status, headers, received, error: res.complete ? undefined : 'incomplete' }))
      res.on('error', (error) => resolve({ status, headers, received, error: error.message }))
      res.on('aborted', () => resolve({ status, headers, received, error: 'aborted' }))
    })
    req.on('error', (error) => resolve({ status, headers, received, error: error.message }))
    req.end(payload)
  })
}

describe('parseFaultSpec', () => {
  it('reads the CLI form', () => {
    expect(parseFaultSpec('429:0.2,retry-after=1')).toEqual({ type: '429', share: 0.2, retryAfter: 1 })
    expect(parseFaultSpec('503:x3')).toEqual({ type: '503', count: 3 })
    expect(parseFaultSpec('slow:x1,ms=5000')).toEqual({ type: 'slow', count: 1, delayMs: 5000 })
    expect(parseFaultSpec('drop,method=patch,path=/targets/')).toEqual({ type: 'drop', method: 'PATCH', path: '/targets/' })
    expect(parseFaultSpec('502-html:1')).toEqual({ type: '502-html', share: 1 })
    expect(parseFaultSpec('not-resource:.5')).toEqual({ type: 'not-resource', share: 0.5 })
    expect(parseFaultSpec('503,retry-after=Wed, 21 Oct 2015 07:28:00 GMT,path=/x/')).toEqual({ type: '503', retryAfter: 'Wed, 21 Oct 2015 07:28:00 GMT', path: '/x/' })
  })

  it('refuses bad input with a clear message', () => {
    const cases: [string, RegExp][] = [
      ['418', /unknown type "418"/],
      ['429:2', /share must be between 0 and 1/],
      ['429:abc', /neither a share/],
      ['429:x0', /count must be at least 1/],
      ['500,retry-after=1', /retry-after applies to 429 and 503 only/],
      ['429,retry-after=soon', /neither seconds nor an HTTP date/],
      ['429,ms=5', /ms applies to slow only/],
      ['slow,ms=fast', /not a whole number/],
      ['drop,path=targets', /must start with \//],
      ['drop,color=red', /unknown option "color"/],
      ['429,retry-after=', /retry-after needs a value/],
      ['429:0.1:2', /more than one ":"/],
    ]
    for (const [text, message] of cases) expect(() => parseFaultSpec(text), text).toThrow(message)
    expect(() => parseFaultSpec('418')).toThrow(/expected <type>/)
  })
})

describe('emulator faults', () => {
  it('429 answers with Retry-After and applies nothing', async () => {
    const em = await emulator({ faults: [{ type: '429', count: 1, retryAfter: 2 }] })
    const limited = await call(em, 'PATCH', T, { fail_fast: false })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('2')
    expect(limited.json).toEqual({ detail: 'Request was throttled. Expected available in 2 seconds.' })
    expect(em.get('target', 'TargetA11111')).toMatchObject({ fail_fast: true })
    // The retry lands once.
    expect((await call(em, 'PATCH', T, { fail_fast: false })).status).toBe(200)
    expect(em.requests().map((r) => [r.status, r.fault])).toEqual([[429, '429'], [200, undefined]])
  })

  it('5xx answer JSON details; 502-html answers an HTML page', async () => {
    const em = await emulator()
    for (const type of ['500', '502', '503', '504'] as const) {
      em.setFaults([{ type, count: 1 }])
      const answer = await call(em, 'PATCH', T, { fail_fast: false })
      expect(answer.status).toBe(Number(type))
      expect(answer.headers.get('content-type')).toBe('application/json')
      expect(answer.json).toEqual({ detail: expect.any(String) })
    }
    em.setFaults([{ type: '503', count: 1, retryAfter: 'Wed, 21 Oct 2015 07:28:00 GMT' }])
    expect((await call(em, 'GET', T)).headers.get('retry-after')).toBe('Wed, 21 Oct 2015 07:28:00 GMT')
    em.setFaults([{ type: '502-html', count: 1 }])
    const html = await call(em, 'GET', T)
    expect(html.status).toBe(502)
    expect(html.headers.get('content-type')).toBe('text/html')
    expect(html.text).toMatch(/^<html>[\s\S]*502 Bad Gateway/)
    expect(em.get('target', 'TargetA11111')).toMatchObject({ fail_fast: true })
  })

  it('not-resource answers 200 with JSON that is not the resource', async () => {
    const em = await emulator({ faults: [{ type: 'not-resource', count: 2 }] })
    const item = await call(em, 'PATCH', T, { fail_fast: false })
    expect(item.status).toBe(200)
    expect(item.json).toEqual({ results: [] })
    expect((await call(em, 'GET', '/targets/')).json).toEqual([])
    expect(em.get('target', 'TargetA11111')).toMatchObject({ fail_fast: true })
  })

  it('drop closes the connection before any response and applies nothing', async () => {
    const em = await emulator({ faults: [{ type: 'drop', count: 1, method: 'PATCH' }] })
    const dropped = await exchange(em, 'PATCH', T, { fail_fast: false })
    expect(dropped.status).toBeUndefined()
    expect(dropped.error).toBeDefined()
    expect(em.get('target', 'TargetA11111')).toMatchObject({ fail_fast: true })
    await expect(fetch(em.url + T, { method: 'GET', headers: AUTH })).resolves.toMatchObject({ status: 200 })
    expect(em.requests().map((r) => [r.method, r.status, r.fault])).toEqual([['PATCH', 0, 'drop'], ['GET', 200, undefined]])
  })

  it('drop-mid sends the headers and part of the body, after the write was applied', async () => {
    const em = await emulator({ faults: [{ type: 'drop-mid', count: 1 }] })
    const cut = await exchange(em, 'PATCH', T, { fail_fast: false })
    expect(cut.status).toBe(200)
    expect(cut.error).toBeDefined()
    expect(Number(cut.headers!['content-length'])).toBeGreaterThan(cut.received.length)
    expect(cut.received.length).toBeGreaterThan(0)
    expect(em.get('target', 'TargetA11111')).toMatchObject({ fail_fast: false })
    await expect(fetch(em.url + T, { headers: AUTH }).then((r) => r.json())).resolves.toMatchObject({ fail_fast: false })
  })

  it('truncate announces more than it sends, after the write was applied', async () => {
    const em = await emulator({ faults: [{ type: 'truncate', count: 1 }] })
    const cut = await exchange(em, 'PATCH', T, { fail_fast: false })
    expect(cut.status).toBe(200)
    expect(cut.error).toBeDefined()
    expect(Number(cut.headers!['content-length'])).toBeGreaterThan(cut.received.length)
    expect(JSON.parse(cut.received)).toMatchObject({ fail_fast: false })
    expect(em.get('target', 'TargetA11111')).toMatchObject({ fail_fast: false })
    // fetch reports the short body as an error.
    em.setFaults([{ type: 'truncate', count: 1 }])
    await expect(fetch(em.url + T, { headers: AUTH }).then((r) => r.text())).rejects.toThrow()
  })

  it('slow answers late, after the write was applied: a client timeout fires first', async () => {
    const em = await emulator({ faults: [{ type: 'slow', count: 1, delayMs: 1500 }] })
    await expect(fetch(em.url + T, { method: 'PATCH', headers: JSON_HEADERS, body: '{"fail_fast": false}', signal: AbortSignal.timeout(100) })).rejects.toThrow()
    expect(em.get('target', 'TargetA11111')).toMatchObject({ fail_fast: false })
    em.setFaults([{ type: 'slow', count: 1, delayMs: 200 }])
    const started = Date.now()
    const late = await call(em, 'GET', T)
    expect(late.status).toBe(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(190)
    expect(em.requests().map((r) => r.fault)).toEqual(['slow', 'slow'])
  })

  it('matches faults by method and path prefix; count takes the first N matching', async () => {
    const em = await emulator({ faults: [{ type: '503', count: 2, method: 'GET', path: '/scanning-agents/' }] })
    expect((await call(em, 'GET', T)).status).toBe(200)
    expect((await call(em, 'PATCH', '/scanning-agents/AgentA111111/', {})).status).toBe(200)
    expect((await call(em, 'GET', '/scanning-agents/AgentA111111/')).status).toBe(503)
    expect((await call(em, 'GET', '/scanning-agents/')).status).toBe(503)
    expect((await call(em, 'GET', '/scanning-agents/')).status).toBe(200)
  })

  it('chooses a share of the requests deterministically from the fault seed', async () => {
    const pattern = async (faultSeed: number, faults: FaultSpec[] = [{ type: '500', share: 0.5 }]) => {
      const em = await emulator({ faults, faultSeed })
      const statuses: number[] = []
      for (let i = 0; i < 40; i++) statuses.push((await call(em, 'GET', T)).status)
      await em.close()
      return statuses.map((s) => (s === 500 ? 'x' : '.')).join('')
    }
    const first = await pattern(7)
    expect(await pattern(7)).toBe(first)
    expect(await pattern(8)).not.toBe(first)
    const faulted = first.split('').filter((c) => c === 'x').length
    expect(faulted).toBeGreaterThan(8)
    expect(faulted).toBeLessThan(32)
    expect(await pattern(7, [{ type: '500', share: 0 }])).toBe('.'.repeat(40))
    expect(await pattern(7, [{ type: '500', share: 1 }])).toBe('x'.repeat(40))
  })

  it('latency delays every response without blocking the others', async () => {
    const em = await emulator({ latencyMs: 300 })
    const started = Date.now()
    const answers = await Promise.all(Array.from({ length: 10 }, () => call(em, 'GET', T)))
    const elapsed = Date.now() - started
    expect(answers.every((a) => a.status === 200)).toBe(true)
    expect(elapsed).toBeGreaterThanOrEqual(295)
    expect(elapsed).toBeLessThan(3000)
    em.setLatency(0)
    expect((await call(em, 'GET', T)).status).toBe(200)
    expect(() => em.setLatency(-1)).toThrow()
  })

  it('the latency includes the handling: a write lands on arrival and its answer comes after the latency', async () => {
    const em = await emulator({ latencyMs: 2000 })
    let answered = false
    const answer = call(em, 'PATCH', T, { site: { name: 'Renamed on arrival' } }).finally(() => (answered = true))
    const name = () => (em.get('target', 'TargetA11111') as { site: { name: string } }).site.name
    while (name() !== 'Renamed on arrival') await new Promise((resolve) => setTimeout(resolve, 5))
    // The write is in the state while its answer is still on its way.
    expect(answered).toBe(false)
    expect((await answer).status).toBe(200)
  })

  it('close() is prompt with a slow response and keep-alive connections open', async () => {
    const em = await emulator({ faults: [{ type: 'slow', delayMs: 60_000, path: '/scanning-agents/' }] })
    await call(em, 'GET', T)
    const pending = fetch(em.url + '/scanning-agents/', { headers: AUTH }).catch((error: Error) => error)
    while (em.requests().length < 2) await new Promise((resolve) => setTimeout(resolve, 10))
    await em.close()
    expect(await pending).toBeInstanceOf(Error)
  })
})
