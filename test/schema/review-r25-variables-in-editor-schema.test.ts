// Review round 25 (the editor's schema agrees with validate): `${NAME}` may stand in any string
// (contract, "Configuration files"), and validate checks the value the variable gives. But the
// schema editors apply to the YAML as written (schemas/config.schema.json, what `scansync schema`
// prints and `init` points at) held the text `${SHOP_URL}` itself to the field's limits: a URL
// from a variable (`url: https://${SHOP_HOST}/`), a label colour, a blackout time, an asset state
// or a long variable name in `token_prefix` got red squiggles on files validate accepts. The schema
// now offers editors, beside each limited string, a string holding a variable; validate still holds
// the variable's value to the limits.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { runCli, ROOT } from '../helpers/cli.js'
import { temporaryDirectory } from '../helpers/emulator.js'

const require = createRequire(import.meta.url)
const { default: Ajv } = require('ajv') as typeof import('ajv')
const addFormats = require('ajv-formats') as typeof import('ajv-formats').default

/** The schema as an editor applies it: draft-07, ajv-formats, to the YAML as parsed (merge keys resolved). */
function editor(): (text: string) => boolean {
  const schema = JSON.parse(readFileSync(`${ROOT}schemas/config.schema.json`, 'utf8')) as object
  const ajv = new Ajv({ allErrors: true, strict: false })
  addFormats(ajv)
  const check = ajv.compile(schema)
  return (text) => check(parse(text, { merge: true })) as boolean
}

const FILE = `targets:
  - site:
      name: Shop
      url: "https://\${SHOP_HOST:-shop.example.com}/"
      form_login_url: \${SHOP_LOGIN_URL}
      otp_login_sequence_totp_value: \${RECORDED_ONE_TIME_PASSWORD}
    labels: [{name: pci, color: "\${PCI_COLOUR}"}]
    report_type: \${REPORT_TYPE}
    blackout_period: {begin: "\${WINDOW_BEGIN}", cease: "18:00", weekdays: [1], timezone: "\${WINDOW_TIMEZONE}"}
    api_scan_settings: {token_prefix: "\${API_TOKEN_PREFIX_WORD}", api_schema_method: "\${SCHEMA_METHOD}"}
assets:
  - id: A1
    state: \${ASSET_STATE}
`
const ENV = {
  SHOP_LOGIN_URL: 'https://shop.example.com/login',
  RECORDED_ONE_TIME_PASSWORD: '123456',
  PCI_COLOUR: '#d93f0b',
  REPORT_TYPE: 'owasp',
  WINDOW_BEGIN: '08:00',
  WINDOW_TIMEZONE: 'Europe/Lisbon',
  API_TOKEN_PREFIX_WORD: 'Bearer',
  SCHEMA_METHOD: 'url',
  ASSET_STATE: 'ARCHIVED',
}

describe('${NAME} in a limited string', () => {
  it('validate accepts it, and so does the schema editors apply', async () => {
    const dir = temporaryDirectory('scansync-r25-editor-', { 'config.yaml': FILE })
    const run = await runCli(['validate', '.'], { cwd: dir, env: ENV })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(editor()(FILE)).toBe(true)
  })

  it("validate still holds the variable's value to the limits, and the editor a value written as it is", async () => {
    const dir = temporaryDirectory('scansync-r25-editor-', { 'config.yaml': FILE })
    const run = await runCli(['validate', '.'], { cwd: dir, env: { ...ENV, SHOP_HOST: 'shop example', ASSET_STATE: 'GONE', WINDOW_BEGIN: '8h' } })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('config.yaml:4:12: targets[0]: site.url must be an absolute URL such as https://example.com/ (got (sensitive))')
    expect(run.stderr).toContain('config.yaml:13:12: asset A1: state must be one of: NEW, ACTIVE, HIDDEN, ARCHIVED (got (sensitive))')
    expect(run.stderr).toContain('blackout_period.begin must be a time of day from 00:00 to 23:59, written HH:MM (got (sensitive))')
    // Written as they are (a `$${` escape is a literal `${`, no variable), the limits apply in the editor too.
    const check = editor()
    expect(check('assets:\n  - id: A1\n    state: GONE\n')).toBe(false)
    expect(check('assets:\n  - id: A1\n    state: "$${ASSET_STATE}"\n')).toBe(false)
    expect(check('targets:\n  - id: T1\n    site: {url: "shop.example.com"}\n')).toBe(false)
    expect(check('targets:\n  - id: T1\n    labels: [{name: pci, color: "a b"}]\n')).toBe(false)
  })
})
