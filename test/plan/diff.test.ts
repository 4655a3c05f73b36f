import { describe, expect, it } from 'vitest'
import type { JsonObject } from '../../src/core/types.js'
import { diffResource } from '../../src/plan/diff.js'
import { KINDS } from '../../src/resources/index.js'
import { emptyState, recordSecret, secretContext, secretHmac } from '../../src/secrets/state.js'
import { declare } from '../helpers/declare.js'

const noSecrets = secretContext(emptyState(), 'token')
const diffTarget = (declared: JsonObject, live: JsonObject, secrets = noSecrets, env = {}) =>
  diffResource(KINDS.target, declare('target', { id: 'T1', ...declared }, env), KINDS.target.project({ id: 'T1', ...live }), secrets)
const diffAsset = (declared: JsonObject, live: JsonObject) =>
  diffResource(KINDS.asset, declare('asset', { id: 'A1', ...declared }), KINDS.asset.project({ id: 'A1', ...live }), noSecrets)
const diffAgent = (declared: JsonObject, live: JsonObject) =>
  diffResource(KINDS.agent, declare('agent', { id: 'G1', ...declared }), KINDS.agent.project({ id: 'G1', ...live }), noSecrets)
const paths = (d: { fields: { path: string }[] }) => d.fields.map((f) => f.path)

const outputLabel = (name: string, color: string | null = null) => ({
  id: `lbl-${name}`, name, color, changed: '2026-01-01T00:00:00.000Z', changed_by: { id: 'u1', name: 'Ann', email: 'ann@example.com' },
})

describe('comparison rules: what the service writes differently is no change', () => {
  it.each([
    ['labels in another order, with ids and colour names', { labels: ['b', 'a'] }, { labels: [outputLabel('a', 'green'), outputLabel('b', '#00ff00')] }],
    ['a declared empty label colour equals none (output labels drop it)', { labels: [{ name: 'a', color: '' }] }, { labels: [outputLabel('a', '')] }],
    ['label colour compared only where declared, case-insensitively', { labels: [{ name: 'pci', color: '#D93F0B' }, 'x'] }, { labels: [outputLabel('x', 'red'), outputLabel('pci', '#d93f0b')] }],
    ['null and "" for nullable text', { site: { desc: '' } }, { site: { desc: null } }],
    ['"" and null the other way round', { site: { desc: null } }, { site: { desc: '' } }],
    ['URL scheme and host case, default port, empty path', { site: { url: 'HTTPS://Shop.Example.COM:443' } }, { site: { url: 'https://shop.example.com/' } }],
    ['HH:MM equals HH:MM:SS with zero seconds', { blackout_period: { begin: '22:00', cease: '06:00', weekdays: [1, 2] } }, { blackout_period: { begin: '22:00:00', cease: '06:00:00', weekdays: [2, 1], enabled: true, changed: 'x' } }],
    ['weekdays as a set', { blackout_period: { begin: '22:00', cease: '06:00', weekdays: [5, 1, 3] } }, { blackout_period: { begin: '22:00', cease: '06:00', weekdays: [1, 3, 5] } }],
    ['scan_profile answered as an object', { scan_profile: 'normal' }, { scan_profile: { id: 'normal', name: 'Normal', builtin: 'true' } }],
    ['scan_profile answered as a string', { scan_profile: 'normal' }, { scan_profile: 'normal' }],
    ['scanning_agent answered as the embedded agent', { scanning_agent: { id: 'AG' } }, { scanning_agent: { id: 'AG', name: 'dc', online: true } }],
    ['scanning_agent null on both sides', { scanning_agent: null }, { scanning_agent: null }],
    ['headers keyed by name, in another order, with undeclared members', { site: { headers: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] } }, { site: { headers: [{ name: 'B', value: '2', allow_testing: false }, { name: 'A', value: '1', authentication: true }] } }],
    ['whitelist and blacklist as sets', { site: { whitelist: ['/b', '/a'], blacklist: ['https://x/*'] } }, { site: { whitelist: ['/a', '/b'], blacklist: ['https://x/*'] } }],
    ['stack as a set by name', { site: { stack: [{ name: 'nginx' }, { name: 'php' }] } }, { site: { stack: [{ id: '1', name: 'php', desc: '' }, { id: '2', name: 'nginx', desc: null }] } }],
    ['api_scan_settings kept inside site', { api_scan_settings: { api_schema_type: 'openapi', custom_api_parameters: [{ name: 't', value: 'v' }] } }, { site: { api_scan_settings: { api_schema_type: 'openapi', custom_api_parameters: [{ name: 't', value: 'v' }] } } }],
    ['api_scan_settings null vs ""', { api_scan_settings: { api_schema_url: null } }, { api_scan_settings: { api_schema_url: '' } }],
    ['include_deduplicated_endpoints false vs null', { include_deduplicated_endpoints: false }, { include_deduplicated_endpoints: null }],
    ['extra fields on the service', { fail_fast: true }, { fail_fast: true, lows: 3, next_scan: null, brand_new_field: { x: 1 } }],
    ['fields the YAML leaves out are never compared', { site: { name: 'Shop' } }, { site: { name: 'Shop', url: 'https://elsewhere/' }, report_type: 'pci' }],
  ])('target: %s', (_name, declared, live) => {
    expect(diffTarget(declared as JsonObject, live as JsonObject).fields).toEqual([])
  })

  it('asset: owners and labels as sets with output labels; comment null vs ""', () => {
    expect(diffAsset({ owners: ['b', 'a'], labels: [], comment: '' }, { owners: [outputLabel('a'), outputLabel('b')], labels: null, comment: null }).fields).toEqual([])
  })

  it('agent: teams as a set of ids, answered with names; [] vs null', () => {
    expect(diffAgent({ teams: ['T2', { id: 'T1' }] }, { teams: [{ id: 'T1', name: 'one' }, { id: 'T2', name: 'two' }] }).fields).toEqual([])
    expect(diffAgent({ teams: [] }, { teams: null }).fields).toEqual([])
  })
})

describe('comparison rules: a real change shows up with the right path', () => {
  it.each([
    ['a label added', { labels: ['a', 'b'] }, { labels: [outputLabel('a')] }, ['labels'], ['labels']],
    ['a declared label colour differs', { labels: [{ name: 'a', color: '#000000' }] }, { labels: [outputLabel('a', 'green')] }, ['labels'], ['labels']],
    ['desc text', { site: { desc: 'new' } }, { site: { desc: null } }, ['site.desc'], ['site.desc']],
    ['URL path', { site: { url: 'https://shop.example.com/v2' } }, { site: { url: 'https://shop.example.com/' } }, ['site.url'], ['site.url']],
    ['blackout begin, sending the whole window', { blackout_period: { begin: '23:00', cease: '06:00', weekdays: [1] } }, { blackout_period: { begin: '22:00:00', cease: '06:00:00', weekdays: [1] } }, ['blackout_period.begin'], ['blackout_period']],
    ['weekdays', { blackout_period: { begin: '22:00', cease: '06:00', weekdays: [1, 2] } }, { blackout_period: { begin: '22:00', cease: '06:00', weekdays: [1] } }, ['blackout_period.weekdays'], ['blackout_period']],
    ['scan_profile object id', { scan_profile: 'full' }, { scan_profile: { id: 'normal' } }, ['scan_profile'], ['scan_profile']],
    ['scanning_agent detached', { scanning_agent: null }, { scanning_agent: { id: 'AG', name: 'x' } }, ['scanning_agent'], ['scanning_agent']],
    ['scanning_agent attached', { scanning_agent: { id: 'AG' } }, { scanning_agent: null }, ['scanning_agent'], ['scanning_agent']],
    ['a header value', { site: { headers: [{ name: 'A', value: '2' }] } }, { site: { headers: [{ name: 'A', value: '1' }] } }, ['site.headers[A].value'], ['site.headers']],
    ['a header added and one removed', { site: { headers: [{ name: 'A', value: '1' }] } }, { site: { headers: [{ name: 'B', value: '1' }] } }, ['site.headers[A]', 'site.headers[B]'], ['site.headers']],
    ['whitelist', { site: { whitelist: ['/a'] } }, { site: { whitelist: ['/a', '/b'] } }, ['site.whitelist'], ['site.whitelist']],
    ['stack', { site: { stack: [{ name: 'php' }] } }, { site: { stack: [{ id: '1', name: 'ruby' }] } }, ['site.stack'], ['site.stack']],
    ['api_scan_settings inside site', { api_scan_settings: { media_type: 'application/json' } }, { site: { api_scan_settings: { media_type: 'application/graphql' } } }, ['api_scan_settings.media_type'], ['api_scan_settings.media_type']],
    ['basic auth username, sending both members', { site: { basic_auth: { username: 'b', password: 'p' } } }, { site: { basic_auth: { username: 'a', password: 'p' } } }, ['site.basic_auth.username'], ['site.basic_auth']],
    ['include_deduplicated_endpoints', { include_deduplicated_endpoints: true }, { include_deduplicated_endpoints: null }, ['include_deduplicated_endpoints'], ['include_deduplicated_endpoints']],
    ['a field the service lacks', { fail_fast: false }, {}, ['fail_fast'], ['fail_fast']],
    ['a header the service holds twice', { site: { headers: [{ name: 'A', value: '1' }] } }, { site: { headers: [{ name: 'A', value: '1' }, { name: 'A', value: '1' }] } }, ['site.headers[A]'], ['site.headers']],
    ['a label the service holds twice', { labels: ['a'] }, { labels: [outputLabel('a'), outputLabel('a')] }, ['labels'], ['labels']],
  ])('target: %s', (_name, declared, live, expectedPaths, expectedUnits) => {
    const diff = diffTarget(declared as JsonObject, live as JsonObject)
    expect(paths(diff)).toEqual(expectedPaths)
    expect(diff.units).toEqual(expectedUnits)
  })

  it('before and after are in the YAML form, sorted', () => {
    const [field] = diffTarget({ labels: ['c', 'a'] }, { labels: [outputLabel('b'), outputLabel('a')] }).fields
    expect(field).toMatchObject({ path: 'labels', before: ['a', 'b'], after: ['a', 'c'], sensitive: false })
    expect(field.source).toMatchObject({ file: 'test.yaml', line: expect.any(Number) })
  })

  it('asset state and owners; agent name and teams', () => {
    expect(paths(diffAsset({ state: 'ARCHIVED', owners: ['a'] }, { state: 'NEW', owners: [] }))).toEqual(['state', 'owners'])
    expect(paths(diffAgent({ name: 'x', teams: ['T1'] }, { name: 'y', teams: [{ id: 'T2', name: 'n' }] }))).toEqual(['name', 'teams'])
  })
})

describe('secrets', () => {
  const declared = { site: { basic_auth: { username: 'u', password: '${PW}', password_is_sensitive: true } } }
  const live = (password: string) => ({ site: { basic_auth: { username: 'u', password, password_is_sensitive: true } } })
  const env = { PW: 'hunter2' }

  it('a value from a variable compared in clear is masked', () => {
    const [field] = diffTarget(declared, live('old-password'), noSecrets, env).fields
    expect(field).toEqual(expect.objectContaining({ path: 'site.basic_auth.password', before: '(sensitive)', after: '(sensitive)', sensitive: true }))
    expect(JSON.stringify(field)).not.toContain('hunter2')
    expect(JSON.stringify(field)).not.toContain('old-password')
  })

  it('an obfuscated value: not yet tracked, in sync, changed in YAML, changed on the service', () => {
    const state = emptyState()
    const reason = (secrets = secretContext(state, 'tok'), pw = 'hunter2', liveToken = 'OBFUSCATED_aaa') =>
      diffTarget(declared, live(liveToken), secrets, { PW: pw }).fields.map((f) => f.reason)
    expect(reason()).toEqual(['not yet tracked'])
    recordSecret(state, 'target', 'T1', 'site.basic_auth.password', { hmac: secretHmac('tok', 'hunter2'), live: 'OBFUSCATED_aaa' })
    expect(reason()).toEqual([])
    expect(reason(undefined, 'rotated')).toEqual(['changed in YAML'])
    expect(reason(undefined, 'hunter2', 'OBFUSCATED_bbb')).toEqual(['changed on the service'])
    // The HMAC is keyed by the token: another token cannot vouch for the value.
    expect(reason(secretContext(state, 'other-token'))).toEqual(['changed in YAML'])
  })

  it('a declared value written exactly as the service obfuscates it is still compared through the secrets state', () => {
    const diff = diffTarget({ site: { basic_auth: { username: 'u', password: 'OBFUSCATED_aaa' } } }, live('OBFUSCATED_aaa'))
    expect(diff.fields.map((f) => [f.path, f.reason])).toEqual([['site.basic_auth.password', 'not yet tracked']])
    expect(diff.hiddenSecrets.map((h) => h.path)).toEqual(['site.basic_auth.password'])
  })

  it('the same scalar on both sides is no change whatever the rule (a reference, nullable text, plain text)', () => {
    const same = { site: { desc: null, name: 'n' }, scanning_agent: null, report_type: 'default' }
    expect(diffTarget(same, same)).toEqual({ fields: [], units: [], hiddenSecrets: [] })
  })

  it('a header value flagged sensitive on the service is masked', () => {
    const [field] = diffTarget({ site: { headers: [{ name: 'Auth', value: 'new' }] } }, { site: { headers: [{ name: 'Auth', value: 'old', value_is_sensitive: true }] } }).fields
    expect(field).toMatchObject({ path: 'site.headers[Auth].value', before: '(sensitive)', after: '(sensitive)', sensitive: true })
  })

  it('otp_secret is always sensitive', () => {
    const [field] = diffTarget({ site: { otp_secret: 'ABC' } }, { site: { otp_secret: 'XYZ' } }).fields
    expect(field).toMatchObject({ before: '(sensitive)', after: '(sensitive)', sensitive: true })
  })

  it('a new header with a sensitive value shows the header without the value', () => {
    const [field] = diffTarget({ site: { headers: [{ name: 'Auth', value: '${PW}' }] } }, { site: { headers: [] } }, noSecrets, env).fields
    expect(field.path).toBe('site.headers[Auth]')
    expect(field.after).toEqual({ name: 'Auth', value: '(sensitive)' })
  })
})
