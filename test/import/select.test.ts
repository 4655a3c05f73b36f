import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import type { JsonObject, KindName } from '../../src/core/types.js'
import { loadFile } from '../../src/config/load.js'
import { formatDiagnostic } from '../../src/core/diagnostics.js'
import { render } from '../../src/emulator/shape.js'
import { obfuscate } from '../../src/emulator/sensitive.js'
import { State } from '../../src/emulator/state.js'
import type { EmulatorSeed } from '../../src/emulator/index.js'
import { Reference, VariableNamer } from '../../src/import/secrets.js'
import { selectFields, type Selected } from '../../src/import/select.js'
import { renderImport } from '../../src/import/yaml.js'
import { KINDS } from '../../src/resources/index.js'

const AGENT = { id: 'AgentA111111', name: 'agent-a' }

/** The live answer (GET) for one seeded resource, as the emulator's service would give it. */
function live(kind: KindName, resource: JsonObject, options: { obfuscated?: boolean; seed?: EmulatorSeed } = {}): JsonObject {
  const list = kind === 'target' ? 'targets' : kind === 'asset' ? 'assets' : 'agents'
  const state = State.fromSeed({ agents: [AGENT], ...options.seed, [list]: [resource] })
  const body = JSON.parse(JSON.stringify(render(state, kind, String(resource.id))))
  return options.obfuscated ? obfuscate(body) : body
}

function select(kind: KindName, resource: JsonObject, options: { obfuscated?: boolean; includeDefaults?: boolean; seed?: EmulatorSeed } = {}): Selected {
  return selectFields(KINDS[kind], live(kind, resource, options), new VariableNamer(), { includeDefaults: options.includeDefaults })
}

const yamlOf = (kind: KindName, resources: Selected[]) => renderImport([{ kind, resources }], '../schemas/config.schema.json')

/** Loads rendered YAML through the real loader, with every referenced variable set. */
function load(text: string, env: Record<string, string> = {}) {
  const { resources, diagnostics } = loadFile('imported.yaml', Buffer.from(text), env)
  if (diagnostics.length > 0) throw new Error(diagnostics.map(formatDiagnostic).join('\n'))
  return resources
}

describe('selectFields', () => {
  it('keeps what a person maintains, in the request schema order, and drops the rest', () => {
    const selected = select('target', {
      id: 'T1',
      site: { name: 'Shop', url: 'https://shop.example.com/', desc: '', stack: [{ name: 'nginx' }] },
      labels: [{ name: 'web', color: '' }, { name: 'api', color: '#d93f0b' }],
      scan_profile: { id: 'sp-deep', name: 'sp-deep' },
      report_type: 'pci',
      blackout_period: { begin: '22:00:00', cease: '06:00', weekdays: [5, 1, 3], timezone: 'UTC', enabled: true },
      scanning_agent: { id: 'AgentA111111' },
      fail_fast: false,
      lows: 3,
      last_scan: { id: 'S1', status: 'completed' },
    })
    expect(selected.fields).toEqual({
      site: { name: 'Shop', url: 'https://shop.example.com/' },
      scan_profile: 'sp-deep',
      report_type: 'pci',
      labels: [{ name: 'api', color: '#d93f0b' }, 'web'],
      scanning_agent: { id: 'AgentA111111' },
      blackout_period: { begin: '22:00', cease: '06:00', weekdays: [1, 3, 5], enabled: true, timezone: 'UTC' },
      fail_fast: false,
    })
    expect(Object.keys(selected.fields)).toEqual(['site', 'scan_profile', 'report_type', 'labels', 'scanning_agent', 'blackout_period', 'fail_fast'])
    expect(selected.notes).toEqual([])
  })

  it('leaves out the documented defaults unless asked, and never writes response-only fields or site.stack', () => {
    const resource = { id: 'T1', site: { name: 'Shop', url: 'https://shop.example.com/', stack: [{ name: 'nginx' }] } }
    expect(select('target', resource).fields).toEqual({ site: { name: 'Shop', url: 'https://shop.example.com/' }, scan_profile: 'normal' })

    const all = select('target', resource, { includeDefaults: true }).fields
    expect(all).toMatchObject({ type: 'single', report_type: 'default', report_fileformat: 'pdf', fail_fast: true, incremental: false, labels: [], scanning_agent: null })
    expect(all.site).toMatchObject({ has_basic_auth: false, otp_algorithm: 'SHA1', otp_digits: 6, otp_type: 'totp', logout_condition: 'any' })
    expect(all.api_scan_settings).toMatchObject({ api_schema_type: 'openapi' })
    for (const field of ['stack', 'host', 'verified', 'has_authentication', 'otp_secret_is_sensitive', 'changed', 'id']) expect(all.site).not.toHaveProperty(field)
    for (const field of ['lows', 'changed', 'assets', 'allowed_scan_profiles', 'login_video', 'unlimited']) expect(all).not.toHaveProperty(field)
    // A value the configuration would refuse is never written, even with every default.
    expect(all.site).not.toHaveProperty('url', '')
  })

  it('writes settings whose switch is on (API settings of an API, otp_type with one-time passwords)', () => {
    const fields = select('target', {
      id: 'T1',
      type: 'api',
      site: { name: 'API', url: 'https://api.example.com/', has_otp: true, otp_digits: 8, api_scan_settings: { api_schema_type: 'graphql', media_type: 'application/graphql' } },
    }).fields
    expect(fields.type).toBe('api')
    expect(fields.api_scan_settings).toEqual({ api_schema_type: 'graphql', media_type: 'application/graphql', token_parameter_location: 'header', api_login_method: 'api_login' })
    expect(fields.site).toMatchObject({ has_otp: true, otp_digits: 8, otp_type: 'totp' })
    expect(fields.site).not.toHaveProperty('logout_condition')
  })

  it('never writes what the configuration would refuse, and leaves a list out whole rather than in part', () => {
    const fields = select('target', {
      id: 'T1',
      site: { name: 'S', url: 'not a url', headers: [{ name: '', value: 'x' }, { name: 'X-Ok', value: 'y' }], whitelist: ['/a', '/a', '/b'] },
      labels: [{ name: 'odd', color: 'not a colour!' }],
      blackout_period: { begin: '22:00:30', cease: '06:00', weekdays: [1] },
      report_type: 'something-new',
    }).fields
    // A URL the schema refuses, a header without a name (the list is compared whole), a time with seconds.
    expect(fields.site).toEqual({ name: 'S', whitelist: ['/a', '/b'] })
    expect(fields.labels).toEqual(['odd'])
    expect(fields).not.toHaveProperty('blackout_period')
    expect(fields).not.toHaveProperty('report_type')
  })

  it('writes assets with owners and labels as names, and agents with teams as ids', () => {
    const asset = select('asset', { id: 'A1', name: 'a.example.com', state: 'ARCHIVED', owners: [{ name: 'ops', color: '' }], comment: 'gone', labels: [] })
    expect(asset.fields).toEqual({ name: 'a.example.com', state: 'ARCHIVED', owners: ['ops'], comment: 'gone' })
    expect(select('asset', { id: 'A2', name: 'b.example.com', state: 'NEW', comment: null }).fields).toEqual({ name: 'b.example.com' })
    const agent = select('agent', { id: 'G1', name: 'lisbon', teams: [{ id: 'TmB' }, { id: 'TmA' }] }, { seed: { teams: [{ id: 'TmA', name: 'A' }, { id: 'TmB', name: 'B' }] } })
    expect(agent.fields).toEqual({ name: 'lisbon', teams: ['TmA', 'TmB'] })
  })
})

describe('secrets', () => {
  const withSecrets = {
    id: 'Tx9',
    type: 'api',
    site: {
      name: 'Shop',
      url: 'https://shop.example.com/',
      has_basic_auth: true,
      basic_auth: { username: 'scanner', password: 'pw-Secret-1', password_is_sensitive: true },
      headers: [
        { name: 'X-Api-Key', value: 'hdr-Secret-2', value_is_sensitive: true },
        { name: 'X-Plain', value: 'plain' },
      ],
      has_otp: true,
      otp_secret: 'otp-Secret-3',
      api_scan_settings: { api_login_payload: 'payload-Secret-4', api_login_payload_is_sensitive: true },
    },
  }
  const SECRETS = ['pw-Secret-1', 'hdr-Secret-2', 'otp-Secret-3', 'payload-Secret-4']

  it('writes a value given in clear but flagged sensitive as a ${VARIABLE} reference', () => {
    const selected = select('target', withSecrets)
    const site = selected.fields.site as JsonObject
    expect((site.basic_auth as JsonObject).password).toEqual(new Reference('TARGET_TX9_SITE_BASIC_AUTH_PASSWORD'))
    expect((site.headers as JsonObject[])[0]).toEqual({ name: 'X-Api-Key', value: new Reference('TARGET_TX9_SITE_HEADERS_X_API_KEY_VALUE'), value_is_sensitive: true })
    expect((site.headers as JsonObject[])[1]).toEqual({ name: 'X-Plain', value: 'plain' })
    expect(site.otp_secret).toEqual(new Reference('TARGET_TX9_SITE_OTP_SECRET'))
    expect((selected.fields.api_scan_settings as JsonObject).api_login_payload).toEqual(new Reference('TARGET_TX9_API_SCAN_SETTINGS_API_LOGIN_PAYLOAD'))
    expect(selected.notes.map((note) => [note.field, note.hidden, note.written])).toEqual([
      ['site.basic_auth.password', false, true],
      ['site.headers[X-Api-Key].value', false, true],
      ['site.otp_secret', false, true],
      ['api_scan_settings.api_login_payload', false, true],
    ])
    expect(selected.secretValues.sort()).toEqual([...SECRETS].sort())

    const text = yamlOf('target', [selected])
    for (const secret of SECRETS) expect(text).not.toContain(secret)
    expect(text).toContain('password: ${TARGET_TX9_SITE_BASIC_AUTH_PASSWORD}')
    expect(text).toContain('#   TARGET_TX9_SITE_HEADERS_X_API_KEY_VALUE: site.headers[X-Api-Key].value')
    // With the variables set to the values, the file declares exactly the live values.
    const [declared] = load(text, {
      TARGET_TX9_SITE_BASIC_AUTH_PASSWORD: 'pw-Secret-1',
      TARGET_TX9_SITE_HEADERS_X_API_KEY_VALUE: 'hdr-Secret-2',
      TARGET_TX9_SITE_OTP_SECRET: 'otp-Secret-3',
      TARGET_TX9_API_SCAN_SETTINGS_API_LOGIN_PAYLOAD: 'payload-Secret-4',
    })
    expect((declared.fields.site as JsonObject).otp_secret).toBe('otp-Secret-3')
    expect([...declared.templates.keys()].sort()).toEqual(['api_scan_settings.api_login_payload', 'site.basic_auth.password', 'site.headers[0].value', 'site.otp_secret'])
  })

  it('leaves out a hidden (OBFUSCATED_) value, as a reference where the request needs the member, with a comment', () => {
    const selected = select('target', withSecrets, { obfuscated: true })
    const site = selected.fields.site as JsonObject
    expect((site.basic_auth as JsonObject).password).toEqual(new Reference('TARGET_TX9_SITE_BASIC_AUTH_PASSWORD'))
    expect(site).not.toHaveProperty('otp_secret')
    expect(selected.fields.api_scan_settings).not.toHaveProperty('api_login_payload')
    expect(selected.notes.map((note) => [note.field, note.hidden, note.written])).toEqual([
      ['site.basic_auth.password', true, true],
      ['site.headers[X-Api-Key].value', true, true],
      ['site.otp_secret', true, false],
      ['api_scan_settings.api_login_payload', true, false],
    ])
    const text = yamlOf('target', [selected])
    expect(text).not.toContain('OBFUSCATED_')
    expect(text).toContain('# Left out: site.otp_secret (the service hides it). To manage it, set TARGET_TX9_SITE_OTP_SECRET and add under site:\n  #   otp_secret: ${TARGET_TX9_SITE_OTP_SECRET}')
    expect(text).toContain('TARGET_TX9_SITE_BASIC_AUTH_PASSWORD: site.basic_auth.password (the service hides it; plan reports it "not yet tracked" until the first apply)')
  })

  it('names variables deterministically, and apart when two fields meet on one name', () => {
    const namer = new VariableNamer()
    expect(namer.name('target', '2DZkoZH8WMEM', 'site.headers[X-Api-Key].value')).toBe('TARGET_2DZKOZH8WMEM_SITE_HEADERS_X_API_KEY_VALUE')
    expect(namer.name('target', '2DZkoZH8WMEM', 'site.headers[X_Api_Key].value')).toBe('TARGET_2DZKOZH8WMEM_SITE_HEADERS_X_API_KEY_VALUE_2')
    expect(namer.name('target', '2dzkozh8wmem', 'site.headers[x-api-key].value')).toBe('TARGET_2DZKOZH8WMEM_SITE_HEADERS_X_API_KEY_VALUE_3')
  })

  it('keeps an empty sensitive value as what it is: nothing to hide', () => {
    const selected = select('target', { id: 'T1', site: { name: 'S', url: 'https://s.example.com/', headers: [{ name: 'X-Empty', value: '', value_is_sensitive: true }] } })
    expect((selected.fields.site as JsonObject).headers).toEqual([{ name: 'X-Empty', value: '', value_is_sensitive: true }])
    expect(selected.notes).toEqual([])
  })
})

describe('renderImport', () => {
  it('starts with the schema line, escapes a literal ${ and reads back as the live values', () => {
    const selected = [
      select('target', { id: 'T2', site: { name: 'Costs ${PRICE} and $${x}', url: 'https://b.example.com/', desc: 'two\nlines' }, labels: [{ name: '${label}', color: '' }] }),
      select('target', { id: 'T1', site: { name: '22:00', url: 'https://a.example.com/' }, labels: [{ name: 'yes', color: '' }, { name: 'pci', color: '#d93f0b' }] }),
    ].sort((a, b) => (a.id < b.id ? -1 : 1))
    const text = yamlOf('target', selected)
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../schemas/config.schema.json')
    expect(text).toContain('name: Costs $${PRICE} and $$${x}')
    expect(text).toContain('labels: [{name: pci, color: "#d93f0b"}, "yes"]')
    const declared = load(text)
    expect(declared.map((r) => r.id)).toEqual(['T1', 'T2'])
    expect((declared[1].fields.site as JsonObject).name).toBe('Costs ${PRICE} and $${x}')
    expect((declared[1].fields.site as JsonObject).desc).toBe('two\nlines')
    expect(declared[1].fields.labels).toEqual([{ name: '${label}' }])
    expect((declared[0].fields.site as JsonObject).name).toBe('22:00')
    expect(declared.every((r) => r.templates.size === 0)).toBe(true)
    // Same input, same bytes.
    expect(yamlOf('target', selected)).toBe(text)
    expect(parse(text)).toHaveProperty('targets')
  })

  it('writes short sets and references on one line and lists of items as blocks', () => {
    const text = yamlOf('target', [
      select('target', {
        id: 'T1',
        site: { name: 'S', url: 'https://s.example.com/', headers: [{ name: 'X-A', value: 'a' }], blacklist: ['https://s.example.com/logout'] },
        scanning_agent: { id: 'AgentA111111' },
        blackout_period: { begin: '22:00', cease: '06:00', weekdays: [1, 2] },
      }),
    ])
    expect(text).toContain('      headers:\n        - name: X-A\n          value: a\n')
    expect(text).toContain('blacklist: [https://s.example.com/logout]')
    expect(text).toContain('scanning_agent: {id: AgentA111111}')
    expect(text).toContain('weekdays: [1, 2]')
    expect(text).toContain('begin: "22:00"')
  })
})
