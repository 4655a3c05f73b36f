// Every limit of the interface document's Limits table that applies to a request field, and every
// enum it gives for one: the value at the limit passes, the one past it fails with a located
// diagnostic that says what was expected and what was found.
import { afterAll, describe, expect, it } from 'vitest'
import { columnOf, lineOf, load, removeTestdirs } from './helpers.js'

afterAll(removeTestdirs)

/** A file with `@@` where the value goes; the value is written as JSON (valid YAML). */
interface Case {
  /** The file, with `@@` standing for the value. */
  yaml: string
  /** Place of the value in the file, as diagnostics name it. */
  path: string
  /** What the message calls the value: `target T1: site.name`. */
  subject: string
}

const target = (body: string): string => `targets:\n  - id: T1\n${body}`

const API_FIELDS = [
  'api_login_url', 'api_login_payload', 'api_login_payload_secondary', 'api_login_token_field', 'token_parameter_name',
  'token_prefix', 'api_schema_type', 'api_schema_method', 'media_type', 'token_parameter_location', 'api_login_method',
] as const

const apiCases = () =>
  Object.fromEntries(
    API_FIELDS.map((field) => [
      `api_scan_settings.${field}`,
      {
        yaml: target(`    type: api\n    api_scan_settings:\n      api_login_enabled: true\n      ${field}: @@\n`),
        path: `targets[0].api_scan_settings.${field}`,
        subject: `target T1: api_scan_settings.${field}`,
      },
    ]),
  ) as Record<`api_scan_settings.${(typeof API_FIELDS)[number]}`, Case>

const CASES = {
  'site.name': { yaml: target('    site:\n      name: @@\n'), path: 'targets[0].site.name', subject: 'target T1: site.name' },
  'site.check_session_operation_name': {
    yaml: target('    site:\n      check_session_operation_name: @@\n'),
    path: 'targets[0].site.check_session_operation_name',
    subject: 'target T1: site.check_session_operation_name',
  },
  'site.form_login_check_pattern': {
    yaml: target('    site:\n      form_login_check_pattern: @@\n'),
    path: 'targets[0].site.form_login_check_pattern',
    subject: 'target T1: site.form_login_check_pattern',
  },
  'site.basic_auth.username': {
    yaml: target('    site:\n      basic_auth:\n        username: @@\n        password: secret\n'),
    path: 'targets[0].site.basic_auth.username',
    subject: 'target T1: site.basic_auth.username',
  },
  'site.basic_auth.password': {
    yaml: target('    site:\n      basic_auth:\n        username: scanner\n        password: @@\n'),
    path: 'targets[0].site.basic_auth.password',
    subject: 'target T1: site.basic_auth.password',
  },
  'site.stack[].name': {
    yaml: target('    site:\n      stack:\n        - name: @@\n'),
    path: 'targets[0].site.stack[0].name',
    subject: 'target T1: site.stack[0].name',
  },
  'site.otp_login_sequence_totp_value': {
    yaml: target('    site:\n      otp_login_sequence_totp_value: @@\n'),
    path: 'targets[0].site.otp_login_sequence_totp_value',
    subject: 'target T1: site.otp_login_sequence_totp_value',
  },
  'site.otp_algorithm': { yaml: target('    site:\n      otp_algorithm: @@\n'), path: 'targets[0].site.otp_algorithm', subject: 'target T1: site.otp_algorithm' },
  'site.otp_digits': { yaml: target('    site:\n      otp_digits: @@\n'), path: 'targets[0].site.otp_digits', subject: 'target T1: site.otp_digits' },
  'site.logout_condition': {
    yaml: target('    site:\n      logout_condition: @@\n'),
    path: 'targets[0].site.logout_condition',
    subject: 'target T1: site.logout_condition',
  },
  ...apiCases(),
  type: { yaml: target('    type: @@\n'), path: 'targets[0].type', subject: 'target T1: type' },
  report_type: { yaml: target('    report_type: @@\n'), path: 'targets[0].report_type', subject: 'target T1: report_type' },
  report_fileformat: { yaml: target('    report_fileformat: @@\n'), path: 'targets[0].report_fileformat', subject: 'target T1: report_fileformat' },
  'blackout_period.timezone': {
    yaml: target('    blackout_period:\n      begin: "22:00"\n      cease: "06:00"\n      weekdays: [1, 2]\n      timezone: @@\n'),
    path: 'targets[0].blackout_period.timezone',
    subject: 'target T1: blackout_period.timezone',
  },
  'blackout_period.begin': {
    yaml: target('    blackout_period:\n      begin: @@\n      cease: "06:00"\n      weekdays: [1, 2]\n'),
    path: 'targets[0].blackout_period.begin',
    subject: 'target T1: blackout_period.begin',
  },
  'blackout_period.cease': {
    yaml: target('    blackout_period:\n      begin: "22:00"\n      cease: @@\n      weekdays: [1, 2]\n'),
    path: 'targets[0].blackout_period.cease',
    subject: 'target T1: blackout_period.cease',
  },
  'target labels[].name': {
    yaml: target('    labels:\n      - name: @@\n        color: green\n'),
    path: 'targets[0].labels[0].name',
    subject: 'target T1: labels[0].name',
  },
  'target labels[] (bare name)': { yaml: target('    labels:\n      - @@\n'), path: 'targets[0].labels[0]', subject: 'target T1: labels[0]' },
  'target labels[].color': {
    yaml: target('    labels:\n      - name: prod\n        color: @@\n'),
    path: 'targets[0].labels[0].color',
    subject: 'target T1: labels[0].color',
  },
  'asset name': { yaml: 'assets:\n  - id: A1\n    name: @@\n', path: 'assets[0].name', subject: 'asset A1: name' },
  'asset state': { yaml: 'assets:\n  - id: A1\n    state: @@\n', path: 'assets[0].state', subject: 'asset A1: state' },
  'asset owners[].name': {
    yaml: 'assets:\n  - id: A1\n    owners:\n      - {name: @@}\n',
    path: 'assets[0].owners[0].name',
    subject: 'asset A1: owners[0].name',
  },
  'asset labels[] (bare name)': { yaml: 'assets:\n  - id: A1\n    labels: [@@]\n', path: 'assets[0].labels[0]', subject: 'asset A1: labels[0]' },
  'asset labels[].color': {
    yaml: 'assets:\n  - id: A1\n    labels:\n      - name: prod\n        color: @@\n',
    path: 'assets[0].labels[0].color',
    subject: 'asset A1: labels[0].color',
  },
  'agent name': { yaml: 'agents:\n  - id: G1\n    name: @@\n', path: 'agents[0].name', subject: 'agent G1: name' },
} satisfies Record<string, Case>

type Field = keyof typeof CASES

const fill = (yaml: string, value: unknown): string => yaml.replace('@@', JSON.stringify(value))

async function expectValid(field: Field, value: unknown) {
  const { diagnostics, config } = await load({ 'a.yaml': fill(CASES[field].yaml, value) })
  expect(diagnostics).toEqual([])
  expect(config.resources).toHaveLength(1)
}

async function expectInvalid(field: Field, value: unknown, expected: string) {
  const { yaml, path, subject } = CASES[field]
  const { diagnostics, config } = await load({ 'a.yaml': fill(yaml, value) })
  expect(config.resources).toEqual([])
  expect(diagnostics).toEqual([
    { file: 'a.yaml', line: lineOf(yaml, '@@'), column: columnOf(yaml, '@@'), path, message: `${subject} ${expected}`, subject: subject.split(': ')[0] },
  ])
}

// [field, limit] per row of the Limits table (and the label and stack item inputs it names).
const MAX_LENGTHS: Array<[Field, number]> = [
  ['site.name', 255],
  ['site.check_session_operation_name', 255],
  ['site.form_login_check_pattern', 255],
  ['site.basic_auth.username', 255],
  ['site.basic_auth.password', 255],
  ['site.stack[].name', 255],
  ['api_scan_settings.api_login_url', 2048],
  ['api_scan_settings.api_login_payload', 4096],
  ['api_scan_settings.api_login_payload_secondary', 4096],
  ['api_scan_settings.api_login_token_field', 256],
  ['api_scan_settings.token_parameter_name', 256],
  ['api_scan_settings.token_prefix', 16],
  ['blackout_period.timezone', 64],
  ['target labels[].name', 255],
  ['target labels[] (bare name)', 255],
  ['asset name', 256],
  ['asset owners[].name', 255],
  ['asset labels[] (bare name)', 255],
  ['agent name', 255],
]

describe('maximum lengths', () => {
  it.each(MAX_LENGTHS)('%s: %i characters pass', async (field, max) => {
    await expectValid(field, 'x'.repeat(max))
  })

  it.each(MAX_LENGTHS)('%s: %i + 1 characters fail', async (field, max) => {
    await expectInvalid(field, 'x'.repeat(max + 1), `must be at most ${max} characters (got ${max + 1})`)
  })

  it('counts characters, not UTF-16 units', async () => {
    await expectValid('site.name', '😀'.repeat(255))
    await expectInvalid('site.name', '😀'.repeat(256), 'must be at most 255 characters (got 256)')
  })
})

describe('otp_login_sequence_totp_value: 6 to 8 characters', () => {
  it.each(['123456', '1234567', '12345678', ''])('%j passes', async (value) => {
    await expectValid('site.otp_login_sequence_totp_value', value)
  })

  it.each([['12345'], ['123456789']])('%j fails', async (value) => {
    await expectInvalid('site.otp_login_sequence_totp_value', value, `must be empty or 6 to 8 characters (got ${JSON.stringify(value)})`)
  })
})

// [field, every allowed value, a value just outside the set]
const ENUMS: Array<[Field, unknown[], unknown]> = [
  ['type', ['single', 'api'], 'web'],
  [
    'report_type',
    ['default', 'executive_summary', 'owasp', 'owasp_web_2021', 'owasp_web_2025', 'pci', 'pci_v3_2_1', 'pci4', 'pci_v4_0_1', 'iso27001', 'hipaa'],
    'owasp_web_2023',
  ],
  ['report_fileformat', ['pdf', 'docx'], 'PDF'],
  ['asset state', ['NEW', 'ACTIVE', 'HIDDEN', 'ARCHIVED'], 'new'],
  ['site.otp_algorithm', ['SHA1', 'SHA256', 'SHA512'], 'SHA384'],
  ['site.otp_digits', [6, 7, 8], 9],
  ['site.logout_condition', ['any', 'all'], 'none'],
  ['api_scan_settings.api_schema_type', ['openapi', 'collection', 'graphql'], 'swagger'],
  ['api_scan_settings.api_schema_method', ['url', 'file', 'introspection', '', null], 'upload'],
  ['api_scan_settings.media_type', ['application/json', 'application/x-www-form-urlencoded', 'application/graphql'], 'text/plain'],
  ['api_scan_settings.token_parameter_location', ['cookie', 'header'], 'query'],
  ['api_scan_settings.api_login_method', ['api_login', 'headers_or_cookies'], 'oauth2'],
]

const listed = (values: unknown[]) => values.map((v) => (v === '' ? '""' : String(v))).join(', ')

describe('enums', () => {
  it.each(ENUMS)('%s: every allowed value passes', async (field, allowed) => {
    for (const value of allowed) await expectValid(field, value)
  })

  it.each(ENUMS)('%s: another value fails, naming the allowed ones', async (field, allowed, bad) => {
    await expectInvalid(field, bad, `must be one of: ${listed(allowed)} (got ${JSON.stringify(bad)})`)
  })

  it('otp_digits below the set fails too, and a string is the wrong type', async () => {
    await expectInvalid('site.otp_digits', 5, 'must be one of: 6, 7, 8 (got 5)')
    await expectInvalid('site.otp_digits', '6', 'must be an integer (got a string)')
  })
})

describe('label color: ^[a-zA-Z0-9#_-]*$', () => {
  const fields: Field[] = ['target labels[].color', 'asset labels[].color']
  it.each(fields)('%s: colour names, #RRGGBB, _, - and empty pass', async (field) => {
    for (const value of ['green', '#d93f0b', 'dark_blue-2', '']) await expectValid(field, value)
  })

  it.each(fields)('%s: other characters fail', async (field) => {
    for (const value of ['#d93f0b ', 'red!', 'rgb(1,2,3)']) {
      await expectInvalid(field, value, `must be a colour name or #RRGGBB (letters, digits, #, _ and - only) (got ${JSON.stringify(value)})`)
    }
  })
})

describe('blackout period times: HH:MM', () => {
  const fields: Field[] = ['blackout_period.begin', 'blackout_period.cease']
  it.each(fields)('%s: 00:00 and 23:59 pass', async (field) => {
    await expectValid(field, '00:00')
    await expectValid(field, '23:59')
  })

  it.each(fields)('%s: 24:00, 12:60, 7:00 and 07:00:00 fail', async (field) => {
    for (const value of ['24:00', '12:60', '7:00', '07:00:00']) {
      await expectInvalid(field, value, `must be a time of day from 00:00 to 23:59, written HH:MM (got ${JSON.stringify(value)})`)
    }
  })

  it('an unquoted time, which YAML reads as a string, passes', async () => {
    const { diagnostics } = await load({
      'a.yaml': 'targets:\n  - id: T1\n    blackout_period: {begin: 22:00, cease: 06:00, weekdays: [1]}\n',
    })
    expect(diagnostics).toEqual([])
  })
})
