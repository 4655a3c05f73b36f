import { describe, expect, it } from 'vitest'
import { call, emulator } from './helpers.js'

describe('emulator writes', () => {
  it('PATCH target deep-merges objects, replaces arrays, keeps the rest, and answers the whole target', async () => {
    const em = await emulator()
    const before = em.get('target', 'TargetA11111') as any
    const answer = await call(em, 'PATCH', '/targets/TargetA11111/', {
      site: { name: 'Alpha 2', basic_auth: { username: 'u2', password: 'p2' }, headers: [{ name: 'X-New', value: 'n' }] },
      fail_fast: false,
      report_type: 'owasp_web_2025',
      unknown_field: 'ignored',
    })
    expect(answer.status).toBe(200)
    const site = answer.json.site
    expect(site).toMatchObject({ name: 'Alpha 2', desc: 'first', url: 'https://alpha.example.com/' })
    // basic_auth merged: the stored sensitivity flag stays.
    expect(site.basic_auth).toEqual({ username: 'u2', password: 'p2', password_is_sensitive: true })
    // headers replaced whole, with the members the service fills in.
    expect(site.headers).toEqual([{ name: 'X-New', value: 'n', value_is_sensitive: false, allow_testing: false, authentication: false, authentication_secondary: false }])
    expect(answer.json).toMatchObject({ fail_fast: false, report_type: 'owasp_web_2025', scan_profile: { id: 'normal' } })
    expect(answer.json).not.toHaveProperty('unknown_field')
    expect(answer.json.changed > before.changed).toBe(true)
    expect(answer.json.changed).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
    expect(answer.json.changed_by).toMatchObject({ id: expect.any(String), email: expect.any(String), name: expect.any(String) })
    expect(site.changed).toBe(answer.json.changed)
    expect(em.get('target', 'TargetA11111')).toEqual(answer.json)
  })

  it('PATCH target takes api_scan_settings at the top level or inside site and keeps them inside site', async () => {
    const em = await emulator()
    const top = await call(em, 'PATCH', '/targets/TargetB22222/', { type: 'api', api_scan_settings: { api_schema_type: 'graphql', custom_api_parameters: [{ name: 'k', value: 'v' }] } })
    expect(top.status).toBe(200)
    expect(top.json).not.toHaveProperty('api_scan_settings')
    expect(top.json.site.api_scan_settings).toMatchObject({ api_schema_type: 'graphql', media_type: 'application/json', custom_api_parameters: [{ name: 'k', value: 'v', value_is_sensitive: false }] })
    const inSite = await call(em, 'PATCH', '/targets/TargetB22222/', { site: { api_scan_settings: { media_type: 'application/graphql' } } })
    expect(inSite.status).toBe(200)
    expect(inSite.json.site.api_scan_settings).toMatchObject({ api_schema_type: 'graphql', media_type: 'application/graphql' })
    expect(inSite.json.site.name).toBe('Beta')
  })

  it('PATCH target writes times as HH:MM:SS, desc null as "", and merges the blackout period', async () => {
    const em = await emulator()
    const answer = await call(em, 'PATCH', '/targets/TargetA11111/', {
      site: { desc: null, url: 'https://new.example.com:8443/app' },
      blackout_period: { begin: '23:30', cease: '05:00', weekdays: [0, 6] },
    })
    expect(answer.status).toBe(200)
    expect(answer.json.site.desc).toBe('')
    expect(answer.json.site.host).toBe('new.example.com:8443')
    expect(answer.json.blackout_period).toMatchObject({ begin: '23:30:00', cease: '05:00:00', weekdays: [0, 6], timezone: 'UTC', enabled: true, changed: answer.json.changed })
    const fresh = await call(em, 'PATCH', '/targets/TargetB22222/', { blackout_period: { begin: '01:00', cease: '02:00', weekdays: [] } })
    expect(fresh.json.blackout_period).toMatchObject({ begin: '01:00:00', cease: '02:00:00', weekdays: [], enabled: true, timezone: 'UTC' })
  })

  it('PATCH target labels are account-level: colours kept unless given, new labels get ids', async () => {
    const em = await emulator()
    const answer = await call(em, 'PATCH', '/targets/TargetB22222/', { labels: [{ name: 'prod' }, { name: 'new-one', color: 'green' }] })
    expect(answer.status).toBe(200)
    const [prod, fresh] = answer.json.labels
    expect(prod).toMatchObject({ name: 'prod', color: '#ff0000' })
    expect(fresh).toMatchObject({ name: 'new-one', color: 'green', id: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{12}$/), changed: expect.any(String), changed_by: expect.any(Object) })
    // A colour given on one target shows on every target that carries the label.
    await call(em, 'PATCH', '/targets/TargetB22222/', { labels: [{ name: 'prod', color: '#00ff00' }] })
    expect((em.get('target', 'TargetA11111') as any).labels[0]).toMatchObject({ name: 'prod', color: '#00ff00', id: prod.id })
    // A label without colour that never existed gets the default colour.
    const other = await call(em, 'PATCH', '/targets/TargetB22222/', { labels: [{ name: 'plain' }] })
    expect(other.json.labels).toEqual([expect.objectContaining({ name: 'plain', color: '#cccccc' })])
    expect((await call(em, 'PATCH', '/targets/TargetB22222/', { labels: [] })).json.labels).toEqual([])
  })

  it('PATCH target scan_profile is a string in, an object out; custom ids are accepted', async () => {
    const em = await emulator()
    expect((await call(em, 'PATCH', '/targets/TargetB22222/', { scan_profile: 'lightning' })).json.scan_profile).toMatchObject({ id: 'lightning', name: 'Lightning', builtin: true })
    expect((await call(em, 'PATCH', '/targets/TargetB22222/', { scan_profile: 'sp-custom' })).json.scan_profile).toEqual({ id: 'sp-custom', name: 'sp-custom', description: null, builtin: false })
  })

  it('PATCH target scanning_agent: {id} embeds the agent, null detaches it', async () => {
    const em = await emulator()
    const attached = await call(em, 'PATCH', '/targets/TargetB22222/', { scanning_agent: { id: 'AgentB222222' }, include_deduplicated_endpoints: true })
    expect(attached.json.scanning_agent).toMatchObject({ id: 'AgentB222222', name: 'agent-b', teams: [], include_deduplicated_endpoints: true })
    const detached = await call(em, 'PATCH', '/targets/TargetA11111/', { scanning_agent: null })
    expect(detached.json.scanning_agent).toBeNull()
  })

  it('PUT asset replaces the writable fields: one left out is reset to its default', async () => {
    const em = await emulator()
    const full = await call(em, 'PUT', '/discovery/assets/AssetB222222/', {
      name: 'b2',
      state: 'HIDDEN',
      owners: [{ name: 'ops' }],
      comment: 'why',
      labels: [{ name: 'prod' }],
    })
    expect(full.status).toBe(200)
    expect(full.json).toMatchObject({ name: 'b2', state: 'HIDDEN', owners: [{ name: 'ops', color: 'blue' }], comment: 'why', labels: [{ name: 'prod', color: '#ff0000' }] })
    const partial = await call(em, 'PUT', '/discovery/assets/AssetB222222/', { name: 'b3' })
    expect(partial.status).toBe(200)
    expect(partial.json).toMatchObject({ name: 'b3', state: 'NEW', owners: [], comment: null, labels: [] })
    // Fields outside the request stay.
    expect(partial.json).toMatchObject({ id: 'AssetB222222', account: expect.any(String), type: 'api' })
    expect(partial.json.changed > full.json.changed).toBe(true)
  })

  it('PATCH agent sets name and teams; null teams clears them', async () => {
    const em = await emulator()
    const renamed = await call(em, 'PATCH', '/scanning-agents/AgentA111111/', { name: 'agent-a2', teams: [{ id: 'TeamTwo22222' }, { id: 'TeamOne11111' }] })
    expect(renamed.status).toBe(200)
    expect(renamed.json).toMatchObject({ name: 'agent-a2', teams: [{ id: 'TeamTwo22222', name: 'Two' }, { id: 'TeamOne11111', name: 'One' }] })
    expect((em.get('target', 'TargetA11111') as any).scanning_agent).toMatchObject({ name: 'agent-a2' })
    const cleared = await call(em, 'PATCH', '/scanning-agents/AgentA111111/', { teams: null })
    expect(cleared.json).toMatchObject({ name: 'agent-a2', teams: [] })
  })

  it('an empty PATCH body changes nothing but `changed` and `changed_by`', async () => {
    const em = await emulator()
    const before = em.get('target', 'TargetA11111') as any
    const answer = await call(em, 'PATCH', '/targets/TargetA11111/')
    expect(answer.status).toBe(200)
    expect({ ...answer.json, changed: before.changed, changed_by: before.changed_by }).toEqual(before)
  })
})
