// POST /targets/: a target created from the PATCH fields, with site.name and site.url required.
import { request as httpRequest } from 'node:http'
import { describe, expect, it } from 'vitest'
import type { Emulator } from '../../src/emulator/index.js'
import { call, emulator, JSON_HEADERS } from './helpers.js'

const NEW = { site: { name: 'Shop (new)', url: 'https://new.example.com/' } }
const BASE58_ID = /^[1-9A-HJ-NP-Za-km-z]{12}$/

/** A POST on a fresh connection that resolves however it ends (a dropped answer included). */
function post(em: Emulator, path: string, body: unknown): Promise<{ status?: number; error?: string }> {
  return new Promise((resolve) => {
    const url = new URL(em.url + path)
    const req = httpRequest({ host: url.hostname, port: url.port, method: 'POST', path, headers: { ...JSON_HEADERS, connection: 'close' }, agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode, error: res.complete ? undefined : 'incomplete' }))
      res.on('error', (error) => resolve({ status: res.statusCode, error: error.message }))
      res.on('aborted', () => resolve({ status: res.statusCode, error: 'aborted' }))
    })
    req.on('error', (error) => resolve({ error: error.message }))
    req.end(JSON.stringify(body))
  })
}

const urlsOf = async (em: Emulator) => ((await call(em, 'GET', '/targets/')).json.results as { site: { url: string } }[]).map((t) => t.site.url)

describe('emulator POST /targets/', () => {
  it('answers 201 with the new target: a new Base58 id, the declared fields, the service defaults', async () => {
    const em = await emulator()
    const answer = await call(em, 'POST', '/targets/', {
      site: { name: 'Shop (new)', url: 'https://New.Example.com/', desc: 'onboarded', headers: [{ name: 'X-Env', value: 'prod' }] },
      labels: [{ name: 'web' }, { name: 'pci', color: '#d93f0b' }],
      scanning_agent: { id: 'AgentB222222' },
      fail_fast: false,
    })
    expect(answer.status).toBe(201)
    const created = answer.json
    expect(created.id).toMatch(BASE58_ID)
    expect(['TargetA11111', 'TargetB22222']).not.toContain(created.id)
    expect(created).toMatchObject({
      site: {
        name: 'Shop (new)',
        desc: 'onboarded',
        host: 'new.example.com',
        headers: [{ name: 'X-Env', value: 'prod', value_is_sensitive: false, allow_testing: false }],
        has_form_login: false,
        verified: false,
        changed_by: { name: 'API token' },
        api_scan_settings: { api_schema_type: 'openapi', media_type: 'application/json' },
      },
      labels: [{ name: 'web' }, { name: 'pci', color: '#d93f0b' }],
      scan_profile: { id: 'normal' },
      scanning_agent: { id: 'AgentB222222', name: 'agent-b' },
      fail_fast: false,
      type: 'single',
      report_type: 'default',
      blackout_period: null,
      changed_by: { name: 'API token' },
    })
    // Then it is a target like the others: read by id, listed in id order, written by PATCH.
    expect((await call(em, 'GET', `/targets/${created.id}/`)).json).toEqual(created)
    const list = await call(em, 'GET', '/targets/')
    expect(list.json.count).toBe(3)
    const ids = list.json.results.map((t: { id: string }) => t.id)
    expect(ids).toEqual([...ids].sort())
    expect((await call(em, 'PATCH', `/targets/${created.id}/`, { site: { desc: 'changed' } })).json.site.desc).toBe('changed')
    expect(em.get('target', created.id)).toMatchObject({ site: { desc: 'changed' } })
  })

  it('gives every creation another id, the same ids on every run', async () => {
    const ids = async () => {
      const em = await emulator()
      const first = await call(em, 'POST', '/targets/', NEW)
      const second = await call(em, 'POST', '/targets/', { site: { name: 'Other', url: 'https://other.example.com/' } })
      return [first.json.id, second.json.id]
    }
    const [a, b] = await ids()
    expect(a).not.toBe(b)
    expect(await ids()).toEqual([a, b])
  })

  it('answers 400 with DRF messages and creates nothing: site.name and site.url required, PATCH rules apply', async () => {
    const em = await emulator()
    const cases: [unknown, unknown][] = [
      [{}, { site: ['This field is required.'] }],
      [{ site: {} }, { site: { name: ['This field is required.'], url: ['This field is required.'] } }],
      [{ site: { name: '', url: 'https://x.example.com/' } }, { site: { name: ['This field may not be blank.'] } }],
      [{ site: { name: 'X', url: 'not a url' } }, { site: { url: ['Enter a valid URL.'] } }],
      [{ ...NEW, report_type: 'nope' }, { report_type: ['"nope" is not a valid choice.'] }],
      [{ ...NEW, scanning_agent: { id: 'NoSuchAgent1' } }, { scanning_agent: ['Invalid pk "NoSuchAgent1" - object does not exist.'] }],
    ]
    for (const [body, errors] of cases) {
      const answer = await call(em, 'POST', '/targets/', body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(answer.json, JSON.stringify(body)).toEqual(errors)
    }
    // No body at all: site is required.
    expect((await call(em, 'POST', '/targets/')).json).toEqual({ site: ['This field is required.'] })
    expect((await call(em, 'POST', '/targets/', '{"site":', JSON_HEADERS)).status).toBe(400)
    expect((await call(em, 'POST', '/targets/', 'x', { ...JSON_HEADERS, 'content-type': 'text/plain' })).status).toBe(415)
    expect((await call(em, 'GET', '/targets/')).json.count).toBe(2)
  })

  it('ignores unknown members and an id in the body, as the service does', async () => {
    const em = await emulator()
    const answer = await call(em, 'POST', '/targets/', { ...NEW, id: 'TargetA11111', risk: 9, site: { ...NEW.site, verified: true } })
    expect(answer.status).toBe(201)
    expect(answer.json.id).not.toBe('TargetA11111')
    expect(answer.json.site.verified).toBe(false)
    expect(answer.json.risk).toBeNull()
    expect(em.get('target', 'TargetA11111')).toMatchObject({ site: { name: 'Alpha' } })
  })

  it('records POSTs in the request log, secrets redacted', async () => {
    const em = await emulator()
    await call(em, 'POST', '/targets/', { site: { ...NEW.site, basic_auth: { username: 'u', password: 'post-secret' } } })
    const [entry] = em.requests()
    expect(entry).toMatchObject({ method: 'POST', path: '/targets/', status: 201 })
    expect(JSON.stringify(entry.body)).not.toContain('post-secret')
    expect(entry.body).toMatchObject({ site: { name: 'Shop (new)', url: 'https://new.example.com/' } })
  })

  it('needs the token', async () => {
    const em = await emulator()
    expect((await call(em, 'POST', '/targets/', NEW, { 'content-type': 'application/json' })).status).toBe(401)
    expect((await call(em, 'GET', '/targets/')).json.count).toBe(2)
  })
})

describe('emulator faults on POST', () => {
  it('a fault refused before handling creates nothing; the retried POST creates once', async () => {
    const em = await emulator({ faults: [{ type: '503', count: 1, method: 'POST' }] })
    expect((await call(em, 'GET', '/targets/')).status).toBe(200)
    expect((await call(em, 'POST', '/targets/', NEW)).status).toBe(503)
    expect(await urlsOf(em)).not.toContain(NEW.site.url)
    expect((await call(em, 'POST', '/targets/', NEW)).status).toBe(201)
    expect((await urlsOf(em)).filter((url) => url === NEW.site.url)).toHaveLength(1)
    expect(em.requests().map((r) => [r.method, r.status, r.fault])).toEqual([
      ['GET', 200, undefined],
      ['POST', 503, '503'],
      ['GET', 200, undefined],
      ['POST', 201, undefined],
      ['GET', 200, undefined],
    ])
  })

  it('429 and a dropped connection before handling create nothing', async () => {
    const em = await emulator({ faults: [{ type: '429', count: 1, method: 'POST', retryAfter: 1 }, { type: 'drop', count: 1, method: 'POST' }] })
    const throttled = await call(em, 'POST', '/targets/', NEW)
    expect(throttled.status).toBe(429)
    expect(throttled.headers.get('retry-after')).toBe('1')
    expect((await post(em, '/targets/', NEW)).status).toBeUndefined()
    expect(await urlsOf(em)).not.toContain(NEW.site.url)
  })

  it('an answer lost after handling (drop-mid, truncate) leaves the target created: the client cannot tell', async () => {
    for (const type of ['drop-mid', 'truncate'] as const) {
      const em = await emulator({ faults: [{ type, count: 1, method: 'POST', path: '/targets/' }] })
      const lost = await post(em, '/targets/', NEW)
      expect(lost.error, type).toBeDefined()
      expect(await urlsOf(em), type).toContain(NEW.site.url)
      expect(em.requests()[0], type).toMatchObject({ method: 'POST', status: 201, fault: type })
    }
  })

  it('a fault with method PATCH leaves POST alone, and one with method POST leaves GET alone', async () => {
    const em = await emulator({ faults: [{ type: '500', method: 'PATCH' }] })
    expect((await call(em, 'POST', '/targets/', NEW)).status).toBe(201)
    em.setFaults([{ type: '500', method: 'POST' }])
    expect((await call(em, 'GET', '/targets/')).status).toBe(200)
    expect((await call(em, 'POST', '/targets/', NEW)).status).toBe(500)
  })
})
