import { describe, expect, it } from 'vitest'
import { call, emulator, JSON_HEADERS } from './helpers.js'

describe('emulator routes', () => {
  it('GET by id answers each kind in the service shape', async () => {
    const em = await emulator()
    const target = await call(em, 'GET', '/targets/TargetA11111/')
    expect(target.status).toBe(200)
    expect(target.headers.get('content-type')).toBe('application/json')
    expect(target.json).toMatchObject({
      id: 'TargetA11111',
      site: { name: 'Alpha', url: 'https://alpha.example.com/', host: 'alpha.example.com', desc: 'first' },
      scan_profile: { id: 'normal', name: 'Normal', builtin: true },
      scanning_agent: { id: 'AgentA111111', name: 'agent-a', teams: [{ id: 'TeamOne11111', name: 'One' }], include_deduplicated_endpoints: null },
      blackout_period: { begin: '22:00:00', cease: '06:00:00', weekdays: [1, 2], timezone: 'UTC', enabled: true },
      labels: [
        { name: 'prod', color: '#ff0000', id: expect.any(String), changed: expect.any(String), changed_by: expect.objectContaining({ id: expect.any(String) }) },
        { name: 'web', color: expect.any(String) },
      ],
    })
    // api_scan_settings lives inside site, as the service returns it.
    expect(target.json.site.api_scan_settings).toMatchObject({ api_login_payload: 'payload-secret' })
    expect(target.json).not.toHaveProperty('api_scan_settings')

    const asset = await call(em, 'GET', '/discovery/assets/AssetA111111/')
    expect(asset.status).toBe(200)
    expect(asset.json).toMatchObject({ id: 'AssetA111111', name: 'a.example.com', state: 'ACTIVE', comment: 'keep', owners: [{ name: 'ops', color: 'blue' }], labels: [{ name: 'prod', color: '#ff0000' }] })

    const agent = await call(em, 'GET', '/scanning-agents/AgentA111111/')
    expect(agent.status).toBe(200)
    expect(agent.json).toMatchObject({ id: 'AgentA111111', name: 'agent-a', teams: [{ id: 'TeamOne11111', name: 'One' }], online: true })
  })

  it('lists pages ordered by id, length defaulting to and capped at 100', async () => {
    const targets = Array.from({ length: 130 }, (_, i) => ({ id: `T${String(129 - i).padStart(4, '0')}`, site: { url: `https://t${i}.example.com/` } }))
    const em = await emulator({ seed: { targets } })
    const first = await call(em, 'GET', '/targets/')
    expect(first.json).toMatchObject({ count: 130, page_total: 2, page: 1, length: 100 })
    expect(first.json.results).toHaveLength(100)
    expect(first.json.results[0].id).toBe('T0000')
    const capped = await call(em, 'GET', '/targets/?page=2&length=500')
    expect(capped.json).toMatchObject({ count: 130, page_total: 2, page: 2, length: 100 })
    expect(capped.json.results.map((t: { id: string }) => t.id)).toEqual(targets.map((t) => t.id).sort().slice(100))
    const small = await call(em, 'GET', '/targets/?page=3&length=7')
    expect(small.json).toMatchObject({ count: 130, page_total: 19, page: 3, length: 7 })
    expect(small.json.results.map((t: { id: string }) => t.id)).toEqual(['T0014', 'T0015', 'T0016', 'T0017', 'T0018', 'T0019', 'T0020'])
    expect((await call(em, 'GET', '/targets/?page=last&length=7')).json.results.map((t: { id: string }) => t.id)).toEqual(['T0126', 'T0127', 'T0128', 'T0129'])
  })

  it('lists the other kinds, an empty list as one empty page', async () => {
    const em = await emulator()
    expect((await call(em, 'GET', '/discovery/assets/')).json).toMatchObject({ count: 2, page_total: 1, page: 1, length: 100 })
    const agents = await call(em, 'GET', '/scanning-agents/?length=1&page=2')
    expect(agents.json).toMatchObject({ count: 2, page_total: 2, page: 2, length: 1, results: [{ id: 'AgentB222222' }] })
    em.seed({})
    expect((await call(em, 'GET', '/targets/')).json).toEqual({ count: 0, page_total: 1, page: 1, length: 100, results: [] })
  })

  it('answers 404 "Invalid page." for a page out of range', async () => {
    const em = await emulator()
    for (const page of ['0', '2', 'x', '-1']) {
      const answer = await call(em, 'GET', `/targets/?page=${page}`)
      expect(answer.status, page).toBe(404)
      expect(answer.json).toEqual({ detail: 'Invalid page.' })
    }
  })

  it('answers 404 for an unknown id or path, and for a path without its final slash', async () => {
    const em = await emulator()
    for (const path of ['/targets/Nope/', '/discovery/assets/Nope/', '/scanning-agents/Nope/', '/targets/TargetA11111', '/nothing/', '/targets/a/b/', '/']) {
      const answer = await call(em, 'GET', path)
      expect(answer.status, path).toBe(404)
      expect(answer.json).toEqual({ detail: 'Not found.' })
    }
    expect((await call(em, 'PATCH', '/targets/Nope/', { fail_fast: true })).status).toBe(404)
    expect((await call(em, 'PUT', '/discovery/assets/Nope/', { name: 'x' })).status).toBe(404)
  })

  it('answers 405 with Allow for a method the path does not serve', async () => {
    const em = await emulator()
    const cases: [string, string, string][] = [
      ['PUT', '/targets/TargetA11111/', 'GET, PATCH'],
      ['DELETE', '/targets/TargetA11111/', 'GET, PATCH'],
      ['PATCH', '/discovery/assets/AssetA111111/', 'GET, PUT'],
      ['POST', '/scanning-agents/AgentA111111/', 'GET, PATCH'],
      // POST /targets/ creates a target (test/emulator/create.test.ts); the other lists take none.
      ['DELETE', '/targets/', 'GET, POST'],
      ['POST', '/discovery/assets/', 'GET'],
      ['PATCH', '/scanning-agents/', 'GET'],
      ['POST', '/teams/', 'GET'],
      ['PATCH', '/teams/TeamOne11111/', 'GET'],
    ]
    for (const [method, path, allow] of cases) {
      const answer = await call(em, method, path, { name: 'x' })
      expect(answer.status, `${method} ${path}`).toBe(405)
      expect(answer.json).toEqual({ detail: `Method "${method}" not allowed.` })
      expect(answer.headers.get('allow')).toBe(allow)
    }
  })

  it('answers 401 without the token, with another scheme and with a wrong token', async () => {
    const em = await emulator()
    const notProvided = { detail: 'Authentication credentials were not provided.' }
    const none = await call(em, 'GET', '/targets/TargetA11111/', undefined, {})
    expect(none.status).toBe(401)
    expect(none.json).toEqual(notProvided)
    expect(none.headers.get('www-authenticate')).toBe('JWT realm="api"')
    expect((await call(em, 'GET', '/targets/', undefined, { authorization: 'Bearer test-token' })).json).toEqual(notProvided)
    const wrong = await call(em, 'PATCH', '/targets/TargetA11111/', { fail_fast: false }, { ...JSON_HEADERS, authorization: 'JWT other' })
    expect(wrong.status).toBe(401)
    expect(wrong.json).toEqual({ detail: 'Invalid token.' })
    expect((await call(em, 'GET', '/targets/', undefined, { authorization: 'JWT' })).status).toBe(401)
    // The scheme is read case-insensitively, as DRF does.
    expect((await call(em, 'GET', '/targets/', undefined, { authorization: 'jwt test-token' })).status).toBe(200)
    // The refused write was not applied.
    expect(em.get('target', 'TargetA11111')).toMatchObject({ fail_fast: true })
  })

  it('checks the token before the method and the id', async () => {
    const em = await emulator()
    expect((await call(em, 'DELETE', '/targets/Nope/', undefined, {})).status).toBe(401)
    expect((await call(em, 'GET', '/nothing/', undefined, {})).status).toBe(404)
  })
})
