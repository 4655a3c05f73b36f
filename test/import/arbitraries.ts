// Varied live targets for the import round trip: web applications and APIs, labels with and
// without colour, blackout periods, headers, cookies, form logins, API settings, agents or none,
// secrets flagged or not, and text that YAML and ${…} interpolation find awkward.
import fc from 'fast-check'
import type { JsonObject } from '../../src/core/types.js'
import type { EmulatorSeed } from '../../src/emulator/index.js'

export const AGENT_IDS = ['AgA1b2C3d4E5', 'AgF6g7H8i9J1', 'AgK2l3M4n5P6']

/** Text that needs care: YAML indicators, look-alikes of other types, ${ and $${, line breaks, non-ASCII. */
const awkward = fc.constantFrom(
  '${HOME}', '$${x}', '${', '$', '# not a comment', ': ', '- ', '"', "'", '\\', '\n', '\r\n', '\t', ' ', 'yes', 'No', 'null', '~',
  '123', '0x1F', '1e3', '22:00', '{a: b}', '[c]', '&anchor', '*alias', '!tag', '%', '@', '`', '|', '>', 'é', '日本語', '🙂', '---', '...',
)
export const text = (maxParts = 4) => fc.array(fc.oneof(awkward, fc.string({ maxLength: 10 })), { maxLength: maxParts }).map((parts) => parts.join(''))
const nonEmpty = (maxParts = 4) => text(maxParts).filter((value) => value.length > 0 && value.length <= 255)

/** Secret values are long and marked, so that finding one in any output is never chance. */
export const SECRET_PREFIX = 'Sek7-'
const secret = fc.tuple(fc.nat(), fc.string({ minLength: 1, maxLength: 12 })).map(([n, s]) => `${SECRET_PREFIX}${n}-${s}`)

const token = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,11}$/)
const url = fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.constantFrom('https://Shop.Example.com', 'https://a.example.com:443/x/', 'http://10.0.0.1:8080/'))

/** A name/value entry whose value is a secret when flagged. */
const entry = (extra: Record<string, fc.Arbitrary<unknown>> = {}) =>
  fc
    .record({ name: token, sensitive: fc.boolean(), plain: text(), secret, ...extra }, { requiredKeys: ['name', 'sensitive', 'plain', 'secret'] })
    .map(({ sensitive, plain, secret: hidden, ...rest }) => ({ ...rest, value: sensitive ? hidden : plain, value_is_sensitive: sensitive }))
const entries = (extra?: Record<string, fc.Arbitrary<unknown>>) => fc.uniqueArray(entry(extra), { selector: (item) => item.name.toLowerCase(), maxLength: 3 })
const headerFlags = { allow_testing: fc.boolean(), authentication: fc.boolean(), authentication_secondary: fc.boolean() }

const time = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.boolean()).map(([h, m, seconds]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}${seconds ? ':00' : ''}`)

const label = fc.record({ name: nonEmpty(2), color: fc.constantFrom('', '#d93f0b', '#B60205', 'green', 'red_1') })

const site = fc.record(
  {
    name: nonEmpty(),
    desc: fc.option(text(), { nil: null }),
    url,
    has_form_login: fc.boolean(),
    form_login_url: url,
    form_login_check_pattern: text(2),
    form_login: entries(),
    logout_detection_enabled: fc.boolean(),
    has_sequence_login: fc.boolean(),
    has_basic_auth: fc.boolean(),
    basic_auth: fc.record({ username: text(2), password: secret, password_is_sensitive: fc.boolean() }),
    headers: entries(headerFlags),
    cookies: entries(headerFlags),
    whitelist: fc.array(text(2), { maxLength: 3 }),
    blacklist: fc.array(url, { maxLength: 3 }),
    auth_enabled: fc.boolean(),
    logout_condition: fc.constantFrom('any', 'all'),
    check_session_url: url,
    has_otp: fc.boolean(),
    otp_secret: secret,
    otp_algorithm: fc.constantFrom('SHA1', 'SHA256', 'SHA512'),
    otp_digits: fc.constantFrom(6, 7, 8),
    otp_field: text(2),
    otp_login_sequence_totp_value: fc.constantFrom('', '123456', '1234abcd'),
    collection_authentication_enabled: fc.boolean(),
  },
  { requiredKeys: ['name', 'url'] },
)

const apiScanSettings = fc.record(
  {
    api_schema_type: fc.constantFrom('openapi', 'collection', 'graphql'),
    api_schema_url: fc.option(url, { nil: null }),
    api_schema_method: fc.constantFrom('url', 'file', 'introspection', '', null),
    custom_api_parameters: entries(),
    media_type: fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'application/graphql'),
    api_login_url: text(2),
    login: fc.oneof(fc.record({ api_login_payload: secret, api_login_payload_is_sensitive: fc.constant(true) }), fc.record({ api_login_payload: text(), api_login_payload_is_sensitive: fc.constant(false) })),
    api_login_enabled: fc.boolean(),
    api_login_token_field: text(2),
    token_prefix: fc.string({ maxLength: 16 }),
    token_parameter_location: fc.constantFrom('cookie', 'header'),
    api_login_method: fc.constantFrom('api_login', 'headers_or_cookies'),
    api_payload_login_enabled_secondary: fc.boolean(),
    secondary: fc.record({ api_login_payload_secondary: secret, api_login_payload_secondary_is_sensitive: fc.boolean() }),
    openapi_check_session_expired_payload: fc.option(text(), { nil: null }),
  },
  { requiredKeys: [] },
).map(({ login, secondary, ...rest }) => ({ ...rest, ...login, ...secondary }))

const target = fc.record(
  {
    type: fc.constantFrom('single', 'api'),
    site,
    api_scan_settings: apiScanSettings,
    labels: fc.uniqueArray(label, { selector: (l) => l.name, maxLength: 4 }),
    scan_profile: fc.constantFrom('normal', 'lightning', 'full', 'sp-custom-deep'),
    report_type: fc.constantFrom('default', 'owasp', 'owasp_web_2025', 'pci4', 'hipaa'),
    report_fileformat: fc.constantFrom('pdf', 'docx'),
    scanning_agent: fc.option(fc.constantFrom(...AGENT_IDS).map((id) => ({ id })), { nil: null }),
    include_deduplicated_endpoints: fc.constantFrom(true, false, null),
    blackout_period: fc.option(
      fc.record({ begin: time, cease: time, weekdays: fc.uniqueArray(fc.integer({ min: 0, max: 7 }), { maxLength: 7 }), timezone: fc.constantFrom('UTC', 'Europe/Lisbon', ''), enabled: fc.boolean() }),
      { nil: null },
    ),
    fail_fast: fc.boolean(),
    incremental: fc.boolean(),
    schedule_reduced_scope: fc.boolean(),
    cancel_scan_on_nav_seq_failure: fc.boolean(),
  },
  { requiredKeys: ['site'] },
)

/** A seed of `count` varied targets (the same every run), the agents they use, and nothing else. */
export function randomTargetsSeed(count: number, seed = 20250602): EmulatorSeed {
  const targets = fc.sample(target, { seed, numRuns: count }).map((fields, i) => ({ id: `RndT${String(i).padStart(4, '0')}x${i % 7}`, ...fields }))
  return {
    teams: [{ id: 'TmRand1Zz9Yy', name: 'Random' }],
    agents: AGENT_IDS.map((id, i) => ({ id, name: `agent-${i}`, teams: [{ id: 'TmRand1Zz9Yy' }] })),
    targets: targets as JsonObject[],
  }
}

/** Every value a seed flags as sensitive (and every OTP secret). */
export function sensitiveValues(seed: EmulatorSeed): string[] {
  const found = new Set<string>()
  const visit = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(visit)
    else if (node !== null && typeof node === 'object') {
      const object = node as JsonObject
      for (const [key, value] of Object.entries(object)) {
        if (typeof value === 'string' && value !== '' && (object[`${key}_is_sensitive`] === true || key === 'otp_secret')) found.add(value)
        else visit(value)
      }
    }
  }
  visit(seed)
  return [...found]
}
