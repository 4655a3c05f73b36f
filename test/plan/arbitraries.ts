// fast-check generators of declared resources (the YAML's shape) and of the ways the service
// writes the same values differently, for the property tests of the diff engine and of apply.
import fc from 'fast-check'
import { stringify } from 'yaml'
import { escapeTemplate } from '../../src/config/interpolate.js'
import type { JsonObject, KindName } from '../../src/core/types.js'

export const AGENT_IDS = ['AgentOne1111', 'AgentTwo2222'] as const
export const TEAM_IDS = ['TeamA1111111', 'TeamB2222222', 'TeamC3333333'] as const

/** Text with the characters that have tripped tools before: quotes, colons, `$`, braces, spaces, non-ASCII. */
export const text = fc.string({ unit: fc.constantFrom(...'aZ09 -_.:/#\'"${}é'.split('')), maxLength: 12 })
export const nonEmpty = fc.string({ unit: fc.constantFrom(...'abcXYZ019-_. é'.split('')), minLength: 1, maxLength: 10 })
const flag = fc.boolean()

const color = fc.constantFrom('green', 'red', '#d93f0b', '#D93F0B', '#0E8A16', 'blue', '')
const labelInput = fc.oneof(nonEmpty, fc.record({ name: nonEmpty, color }, { requiredKeys: ['name'] }))
export const labelList = fc.uniqueArray(labelInput, { maxLength: 4, selector: (l) => (typeof l === 'string' ? l : l.name) })

const host = fc.constantFrom('shop.example.com', 'api.example.com', 'x.test', '127.0.0.1')
const path = fc.constantFrom('', '/', '/a', '/a/b/', '/login?next=/x')
export const url = fc.tuple(fc.constantFrom('https', 'http'), host, fc.constantFrom('', ':8443'), path).map(([s, h, p, rest]) => `${s}://${h}${p}${rest}`)

const nameValue = fc.record({ name: nonEmpty, value: text, value_is_sensitive: flag }, { requiredKeys: ['name', 'value'] })
const nameValues = fc.uniqueArray(nameValue, { maxLength: 3, selector: (e) => e.name })
const header = fc.record(
  { name: nonEmpty, value: text, value_is_sensitive: flag, allow_testing: flag, authentication: flag, authentication_secondary: flag },
  { requiredKeys: ['name', 'value'] },
)
const headers = fc.uniqueArray(header, { maxLength: 3, selector: (e) => e.name })
const time = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`)

const site = fc.record(
  {
    name: text,
    desc: fc.option(text, { nil: null }),
    url,
    has_form_login: flag,
    form_login_url: url,
    form_login_check_pattern: text,
    form_login: nameValues,
    logout_detection_enabled: flag,
    has_basic_auth: flag,
    basic_auth: fc.record({ username: text, password: text, password_is_sensitive: flag }, { requiredKeys: ['username', 'password'] }),
    headers,
    cookies: headers,
    whitelist: fc.uniqueArray(text, { maxLength: 3 }),
    blacklist: fc.uniqueArray(url, { maxLength: 3 }),
    auth_enabled: flag,
    logout_condition: fc.constantFrom('any', 'all'),
    check_session_url: fc.oneof(url, text),
    has_otp: flag,
    otp_secret: text,
    otp_digits: fc.constantFrom(6, 7, 8),
    stack: fc.uniqueArray(fc.record({ name: nonEmpty }), { maxLength: 3, selector: (s) => s.name }),
  },
  { requiredKeys: [] },
)

const apiScanSettings = fc.record(
  {
    api_schema_type: fc.constantFrom('openapi', 'collection', 'graphql'),
    api_schema_url: fc.option(text, { nil: null }),
    api_schema_file: fc.option(text, { nil: null }),
    api_schema_method: fc.constantFrom('url', 'file', 'introspection', '', null),
    custom_api_parameters: nameValues,
    media_type: fc.constantFrom('application/json', 'application/graphql'),
    api_login_enabled: flag,
    api_login_payload: text,
    api_login_payload_is_sensitive: flag,
    token_prefix: fc.string({ maxLength: 8 }).filter((s) => !s.includes('${') && !s.includes('$')),
    token_parameter_location: fc.constantFrom('cookie', 'header'),
    openapi_check_session_expired_payload: fc.option(text, { nil: null }),
  },
  { requiredKeys: [] },
)

export const target = fc.record(
  {
    site,
    api_scan_settings: apiScanSettings,
    labels: labelList,
    scan_profile: fc.constantFrom('normal', 'lightning', 'full', 'sp-custom-1'),
    type: fc.constantFrom('single', 'api'),
    report_type: fc.constantFrom('default', 'owasp', 'pci4'),
    report_fileformat: fc.constantFrom('pdf', 'docx'),
    scanning_agent: fc.option(fc.record({ id: fc.constantFrom(...AGENT_IDS) }), { nil: null }),
    include_deduplicated_endpoints: fc.constantFrom(true, false, null),
    blackout_period: fc.record(
      { begin: time, cease: time, weekdays: fc.uniqueArray(fc.integer({ min: 0, max: 7 }), { maxLength: 8 }), timezone: fc.constantFrom('UTC', 'Europe/Lisbon'), enabled: flag },
      { requiredKeys: ['begin', 'cease', 'weekdays'] },
    ),
    fail_fast: flag,
    incremental: flag,
    reduced_scope: flag,
  },
  { requiredKeys: [] },
) as fc.Arbitrary<JsonObject>

export const asset = fc.record(
  {
    name: nonEmpty,
    state: fc.constantFrom('NEW', 'ACTIVE', 'HIDDEN', 'ARCHIVED'),
    owners: labelList,
    comment: fc.option(text, { nil: null }),
    labels: labelList,
  },
  { requiredKeys: [] },
) as fc.Arbitrary<JsonObject>

export const agent = fc.record(
  {
    name: nonEmpty,
    teams: fc.uniqueArray(fc.constantFrom(...TEAM_IDS), { maxLength: 3 }).chain((ids) =>
      fc.tuple(...ids.map((id) => fc.constantFrom<unknown>(id, { id }))),
    ),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<JsonObject>

export const RESOURCE: Record<KindName, fc.Arbitrary<JsonObject>> = { target, asset, agent }

/** Every string escaped so that it survives `${…}` interpolation as written. */
export function escaped(value: unknown): unknown {
  if (typeof value === 'string') return escapeTemplate(value)
  if (Array.isArray(value)) return value.map(escaped)
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, escaped(v)]))
  return value
}

const LIST: Record<KindName, string> = { target: 'targets', asset: 'assets', agent: 'agents' }

/** The YAML text declaring resources (strings escaped so that the loader reads them back as they are). */
export const yamlOf = (kind: KindName, resources: JsonObject[]): string => stringify({ [LIST[kind]]: resources.map(escaped) })

/**
 * How the service writes the same data differently: a generator of functions that rewrite a
 * declared resource into an equivalent seed form (list orders, URL case and default ports,
 * HH:MM:SS, objects for ids, null for "", api_scan_settings inside site, colours in upper case).
 */
export const serviceForm = fc.record({
  reverseLists: flag,
  upperHost: flag,
  secondsInTimes: flag,
  objectIds: flag,
  nullForEmpty: flag,
  apiInSite: flag,
  upperColors: flag,
})

export type ServiceForm = { reverseLists: boolean; upperHost: boolean; secondsInTimes: boolean; objectIds: boolean; nullForEmpty: boolean; apiInSite: boolean; upperColors: boolean }

const upperUrl = (value: unknown) => {
  if (typeof value !== 'string') return value
  const match = /^(https?):\/\/([^/:?]+)(:\d+)?(.*)$/.exec(value)
  if (!match) return value
  const port = match[3] ?? (match[1] === 'https' ? ':443' : ':80')
  return `${match[1].toUpperCase()}://${match[2].toUpperCase()}${port}${match[4]}`
}

/** The seed form of a declared resource under the given rewriting. */
export function seedForm(kind: KindName, id: string, declared: JsonObject, form: ServiceForm): JsonObject {
  const x = structuredClone(declared) as Record<string, any>
  const rev = <T>(list: T[] | undefined) => (form.reverseLists && Array.isArray(list) ? [...list].reverse() : list)
  const labels = (list: unknown) =>
    rev((list as any[] | undefined)?.map((l) => (typeof l === 'string' ? { name: l } : form.upperColors && l.color ? { ...l, color: l.color.toUpperCase() } : l)))
  if (kind === 'target') {
    if (x.labels) x.labels = labels(x.labels)
    if (x.site) {
      const s = x.site
      for (const key of ['headers', 'cookies', 'form_login', 'whitelist', 'blacklist', 'stack']) if (s[key]) s[key] = rev(s[key])
      if (form.upperHost) for (const key of ['url', 'form_login_url']) if (s[key]) s[key] = upperUrl(s[key])
      if (form.nullForEmpty && s.desc === '') s.desc = null
      else if (form.nullForEmpty && s.desc === null) s.desc = ''
    }
    if (x.blackout_period) {
      x.blackout_period.weekdays = rev(x.blackout_period.weekdays)
      if (form.secondsInTimes) for (const key of ['begin', 'cease']) x.blackout_period[key] += ':00'
    }
    if (form.objectIds && typeof x.scan_profile === 'string') x.scan_profile = { id: x.scan_profile, name: `Profile ${x.scan_profile}` }
    if (x.api_scan_settings?.custom_api_parameters) x.api_scan_settings.custom_api_parameters = rev(x.api_scan_settings.custom_api_parameters)
    if (form.apiInSite && x.api_scan_settings) {
      x.site = { ...(x.site ?? {}), api_scan_settings: x.api_scan_settings }
      delete x.api_scan_settings
    }
  }
  if (kind === 'asset') {
    if (x.owners) x.owners = labels(x.owners)
    if (x.labels) x.labels = labels(x.labels)
    if (form.nullForEmpty && x.comment === '') x.comment = null
    else if (form.nullForEmpty && x.comment === null) x.comment = ''
  }
  if (kind === 'agent' && x.teams) x.teams = rev(x.teams.map((t: unknown) => (typeof t === 'string' ? { id: t } : t)))
  return { id, ...x }
}

/** Teams and agents every generated account has (targets refer to the agents, agents to the teams). */
export const baseSeed = () => ({
  teams: TEAM_IDS.map((id) => ({ id, name: `Team ${id}` })),
  agents: AGENT_IDS.map((id) => ({ id, name: `agent ${id}` })),
})
