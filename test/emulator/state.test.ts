import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { startEmulator, type EmulatorSeed } from '../../src/emulator/index.js'
import { call, emulator, TOKEN } from './helpers.js'

describe('emulator request log', () => {
  it('records method, path, query, body and which headers were present, in arrival order', async () => {
    const em = await emulator()
    await call(em, 'GET', '/targets/?page=1&length=5')
    await call(em, 'PATCH', '/scanning-agents/AgentA111111/', { name: 'n', extra: 1 }, { authorization: `JWT ${TOKEN}`, 'content-type': 'application/json', 'user-agent': 'scansync/0.1.0', accept: 'application/json' })
    await call(em, 'GET', '/nothing/', undefined, {})
    expect(em.requests()).toEqual([
      { method: 'GET', path: '/targets/', query: { page: '1', length: '5' }, body: undefined, headers: expect.objectContaining({ authorization: true }), status: 200 },
      {
        method: 'PATCH',
        path: '/scanning-agents/AgentA111111/',
        query: {},
        body: { name: 'n', extra: 1 },
        headers: { authorization: true, contentType: 'application/json', accept: 'application/json', userAgent: 'scansync/0.1.0' },
        status: 200,
      },
      { method: 'GET', path: '/nothing/', query: {}, body: undefined, headers: expect.objectContaining({ authorization: false }), status: 404 },
    ])
    em.clearRequests()
    expect(em.requests()).toEqual([])
  })

  it('never holds the token, and redacts sensitive values of bodies', async () => {
    const em = await emulator()
    await call(em, 'PATCH', '/targets/TargetA11111/', {
      site: {
        basic_auth: { username: 'u', password: 'pw-secret' },
        headers: [{ name: 'X-Key', value: 'hdr-secret', value_is_sensitive: true }, { name: 'X-Plain', value: 'plain' }],
        otp_secret: 'otp-secret',
      },
      api_scan_settings: { api_login_payload: 'payload-secret' },
    })
    await call(em, 'GET', '/targets/', undefined, { authorization: 'JWT wrong-token' })
    const log = em.requests()
    const text = JSON.stringify(log)
    expect(text).not.toContain(TOKEN)
    expect(text).not.toContain('wrong-token')
    expect(text).not.toMatch(/pw-secret|hdr-secret|otp-secret|payload-secret/)
    expect(log[0].body).toEqual({
      site: {
        basic_auth: { username: 'u', password: '(redacted)' },
        headers: [{ name: 'X-Key', value: '(redacted)', value_is_sensitive: true }, { name: 'X-Plain', value: 'plain' }],
        otp_secret: '(redacted)',
      },
      api_scan_settings: { api_login_payload: '(redacted)' },
    })
    expect(log[1]).toMatchObject({ status: 401, headers: { authorization: true } })
  })

  it('keeps no body that is not JSON', async () => {
    const em = await emulator()
    await call(em, 'PATCH', '/targets/TargetA11111/', '{"password": "oops')
    expect(em.requests()[0]).toMatchObject({ status: 400, body: undefined })
  })
})

describe('emulator state', () => {
  it('mutate changes a resource as the web UI would: deep merge, changed and changed_by updated', async () => {
    const em = await emulator()
    const before = em.get('target', 'TargetA11111') as any
    em.mutate('target', 'TargetA11111', { site: { name: 'Renamed by hand' }, labels: [{ name: 'web' }], blackout_period: { begin: '21:00' } })
    const after = (await call(em, 'GET', '/targets/TargetA11111/')).json
    expect(after.site).toMatchObject({ name: 'Renamed by hand', desc: 'first', url: 'https://alpha.example.com/' })
    expect(after.labels.map((l: { name: string }) => l.name)).toEqual(['web'])
    expect(after.blackout_period).toMatchObject({ begin: '21:00:00', cease: '06:00:00' })
    expect(after.changed > before.changed).toBe(true)
    expect(after.changed_by.email).toBe('alice@example.com')
    em.mutate('asset', 'AssetA111111', { state: 'HIDDEN' })
    expect(em.get('asset', 'AssetA111111')).toMatchObject({ state: 'HIDDEN', comment: 'keep', owners: [{ name: 'ops' }] })
    em.mutate('agent', 'AgentB222222', { teams: [{ id: 'TeamTwo22222' }] })
    expect(em.get('agent', 'AgentB222222')).toMatchObject({ teams: [{ id: 'TeamTwo22222', name: 'Two' }] })
  })

  it('mutate throws for an unknown id and leaves the resource whole on a bad change', () => {
    return emulator().then((em) => {
      expect(() => em.mutate('target', 'Nope', { fail_fast: false })).toThrow(/no target with id "Nope"/)
      const before = em.get('target', 'TargetA11111')
      expect(() => em.mutate('target', 'TargetA11111', { fail_fast: false, scanning_agent: { id: 'Ghost' } })).toThrow(/unknown scanning agent/)
      expect(em.get('target', 'TargetA11111')).toEqual(before)
    })
  })

  it('get returns a copy, undefined for an unknown id', async () => {
    const em = await emulator()
    const copy = em.get('target', 'TargetA11111') as any
    copy.site.name = 'changed in the copy'
    expect((em.get('target', 'TargetA11111') as any).site.name).toBe('Alpha')
    expect(em.get('asset', 'Nope')).toBeUndefined()
  })

  it('seed replaces all data; a bad seed is refused with its place', async () => {
    const em = await emulator()
    em.seed({ agents: [{ id: 'Solo', name: 'solo' }] })
    expect((await call(em, 'GET', '/targets/')).json.count).toBe(0)
    expect((await call(em, 'GET', '/scanning-agents/Solo/')).json).toMatchObject({ name: 'solo', teams: [] })
    expect(() => em.seed({ targets: [{ site: { name: 'x' } }] as EmulatorSeed['targets'] })).toThrow(/targets\[0\] needs an id/)
    expect(() => em.seed({ targets: [{ id: 'A' }, { id: 'A' }] })).toThrow(/holds the id A twice/)
    expect(() => em.seed({ targets: [{ id: 'A', scanning_agent: { id: 'Ghost' } }] })).toThrow(/targets A: unknown scanning agent/)
  })

  it('serves the example seed in the service shape', async () => {
    const seed = JSON.parse(readFileSync(new URL('../../examples/emulator-seed.json', import.meta.url), 'utf8')) as EmulatorSeed
    const em = await emulator({ seed })
    const shop = (await call(em, 'GET', '/targets/2DZkoZH8WMEM/')).json
    expect(shop).toMatchObject({
      scan_profile: { id: 'normal' },
      blackout_period: { begin: '22:00:00', cease: '06:00:00' },
      scanning_agent: { id: '3kLx8Qy7Pb2m', teams: [{ id: 'Tm8Kq2Xa9Lp3', name: 'Platform' }] },
    })
    const payments = (await call(em, 'GET', '/targets/5HnBvC3xZaQw/')).json
    expect(payments.scan_profile).toEqual({ id: 'sp-api-deep', name: 'sp-api-deep', description: 'API scan with every injection test', builtin: false })
    expect(payments.labels).toEqual([expect.objectContaining({ name: 'production', color: '#b60205' }), expect.objectContaining({ name: 'api', color: 'green' })])
    expect((await call(em, 'GET', '/targets/')).json.count).toBe(4)
    expect((await call(em, 'GET', '/discovery/assets/')).json.count).toBe(4)
    expect((await call(em, 'GET', '/scanning-agents/')).json.count).toBe(3)
  })

  it('listens on loopback only, unless allowed', async () => {
    for (const host of ['0.0.0.0', '10.0.0.1', 'example.com', '::', '128.0.0.1']) {
      await expect(startEmulator({ host }), host).rejects.toThrow(/refusing to listen on .*: not a loopback address \(allow it with --allow-remote\)/)
    }
    const em = await startEmulator()
    expect(em.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    await em.close()
    await em.close()
  })
})
