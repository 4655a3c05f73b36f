// A rule comparing a field with a value it never has, but nearly has (`state: {const: archived}`
// for ARCHIVED), never matches: a `when` silently selects nothing, as a misspelt field name would
// make it. Such a value is an error at its line, as a misspelt name is, where the kind's schemas
// list the field's values. A value far from all of them is left alone (the service may answer others).
import { afterAll, describe, expect, it } from 'vitest'
import { columnOf, lineOf, load, removeTestdirs } from '../config/helpers.js'
import { emulator, runCli, tempdir } from '../e2e/helpers.js'

afterAll(removeTestdirs)

const diagnosticsOf = async (text: string) => (await load({ 'rules.yaml': text })).diagnostics.map((d) => `${d.line}:${d.column}: ${d.message}`)

describe('a value a field never has, nearly one it has', () => {
  it('in a const and an enum, in when and require: an error at the value', async () => {
    const text = `policies:
  - name: archived-assets
    kind: asset
    when: {properties: {state: {const: archived}}}
    require: {required: [comment]}
  - name: pci-report
    kind: target
    when: {required: [labels]}
    require:
      properties:
        report_type: {enum: [pci4, PCI_V4_0_1]}
        report_fileformat: {const: pfd}
`
    expect(await diagnosticsOf(text)).toEqual([
      `${lineOf(text, 'archived}')}:${columnOf(text, 'archived}')}: policy archived-assets: when: an asset's state is never "archived" (did you mean "ARCHIVED"? values are compared as written, letter case too)`,
      `${lineOf(text, 'PCI_V4')}:${columnOf(text, 'PCI_V4')}: policy pci-report: require: a target's report_type is never "PCI_V4_0_1" (did you mean "pci_v4_0_1"? values are compared as written, letter case too)`,
      `${lineOf(text, 'pfd')}:${columnOf(text, 'pfd')}: policy pci-report: require: a target's report_fileformat is never "pfd" (did you mean "pdf"?)`,
    ])
  })

  it('values the field has, a value far from all of them, and fields without a list of values are left alone', async () => {
    const text = `policies:
  - name: fine
    kind: asset
    when: {properties: {state: {enum: [ARCHIVED, HIDDEN]}, comment: {const: archived}}}
    require: {not: {properties: {state: {const: RETIRED_BY_THE_SERVICE}}}}
`
    expect(await diagnosticsOf(text)).toEqual([])
  })

  it('validate exits 1 naming the line, and plan sends nothing', async () => {
    const em = await emulator()
    const text = `policies:\n  - name: r\n    kind: asset\n    when: {properties: {state: {const: Hidden}}}\n    require: {required: [comment]}\n`
    const dir = tempdir({ 'rules.yaml': text })
    const validate = await runCli(['validate'], { cwd: dir })
    expect(validate.stderr).toContain(`rules.yaml:4:40: policy r: when: an asset's state is never "Hidden" (did you mean "HIDDEN"?`)
    expect(validate.code).toBe(1)
    em.clearRequests()
    const planned = await runCli(['plan'], { cwd: dir, env: { SCANSYNC_API_URL: em.url, SCANSYNC_API_TOKEN: 'x-token-123456' } })
    expect(planned.code).toBe(1)
    expect(em.requests()).toEqual([])
  })
})

// Rules see a secret (a password, a field the schemas mark sensitive) as `(sensitive)`, never its
// value: a rule about its length or its pattern checked those 11 characters, and always failed (or
// always passed) without a word.
describe('a keyword about the content of a secret', () => {
  it('is an error at the keyword; presence, and fields that are secrets only when flagged, are left alone', async () => {
    const text = `policies:
  - name: strong-passwords
    kind: target
    require:
      properties:
        site:
          properties:
            basic_auth: {properties: {password: {minLength: 12, type: string}}}
            otp_secret: {pattern: "^[A-Z2-7]+$"}
            form_login: {items: {properties: {value: {minLength: 8}}}}
          required: [basic_auth]
`
    expect(await diagnosticsOf(text)).toEqual([
      `${lineOf(text, 'minLength: 12')}:${columnOf(text, 'minLength: 12')}: policy strong-passwords: require: rules see a target's site.basic_auth.password as "(sensitive)", never its value (a secret), so minLength cannot be checked on it`,
      `${lineOf(text, 'otp_secret')}:${columnOf(text, 'pattern')}: policy strong-passwords: require: rules see a target's site.otp_secret as "(sensitive)", never its value (a secret), so pattern cannot be checked on it`,
    ])
  })
})
