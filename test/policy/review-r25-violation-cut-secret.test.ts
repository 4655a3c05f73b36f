// A violation's texts are cut when long: the value a rule wanted (`must be equal to constant "…"`)
// at 200 characters in every format, the whole message at 500 in the markdown reports (the PR
// comment, `audit --format markdown`). Both cuts were made before the run's redaction, so a secret
// of the run held across a cut (a rule's value or description quoting a variable's value) lost
// its end, and the output step, which redacts whole secrets, printed its first characters:
// `must be equal to constant "xxx… sekrit-val…"`, `… sekrit-value-1… (67 more characters)`.
import { describe, expect, it } from 'vitest'
import { cli, sharedEmulator, tempdir } from '../e2e/helpers.js'

const em = sharedEmulator()
const SECRET = 'Zq8-secret-Kx31v'

/** A target holding SCANNER_KEY, and one rule whose own lines (`rule`) it breaks. */
const configuration = (rule: string) =>
  tempdir({
    'targets.yaml': `targets:\n  - id: 2DZkoZH8WMEM\n    site:\n      name: Shop\n      headers:\n        - {name: X-Scanner-Key, value: "\${SCANNER_KEY}", value_is_sensitive: true}\n`,
    'rules.yaml': `policies:\n  - name: shop-named-right\n    kind: target\n${rule}`,
  })

// 190 characters, a space, then the secret: the 200-character cut (of the JSON text, its quote included) falls inside it.
const longValue = () =>
  configuration(`    description: The shop has its long name\n    require: {properties: {site: {properties: {name: {const: "${'x'.repeat(190)} ${SECRET}"}}}}}\n`)

// 485 characters, a space, then the secret: the 500-character cut falls inside it.
const longDescription = () =>
  configuration(`    description: "${'x'.repeat(485)} ${SECRET} is the key"\n    require: {properties: {site: {properties: {name: {const: Other}}}}}\n`)

describe.concurrent("a long value of a rule holding a secret, in a violation's message", () => {
  for (const format of ['text', 'json', 'markdown', 'github']) {
    it(`plan --format ${format}: no part of the secret`, async () => {
      const { stdout, stderr, code } = await cli(em(), longValue(), ['plan', '--format', format], { SCANNER_KEY: SECRET })
      expect(stdout + stderr).toContain('shop-named-right')
      // JSON escapes the quotes.
      expect(stdout + stderr).toMatch(/must be equal to constant \\?"\(sensitive\)\\?"/)
      expect(stdout + stderr).not.toContain(SECRET.slice(0, 6))
      expect(code).toBe(1)
    })
  }

  it('a long value without a secret is still shown, cut', async () => {
    const { stderr, code } = await cli(em(), longValue(), ['plan'], { SCANNER_KEY: 'another-Value-9Qz' })
    expect(stderr).toContain(`site.name: must be equal to constant "${'x'.repeat(190)} Zq8-secr…)`)
    expect(code).toBe(1)
  })
})

describe.concurrent('a violation message cut for the markdown report', () => {
  for (const command of ['plan', 'audit']) {
    it(`${command} --format markdown: no part of a secret at the cut`, async () => {
      const { stdout, stderr, code } = await cli(em(), longDescription(), [command, '--format', 'markdown'], { SCANNER_KEY: SECRET })
      expect(stdout).toContain('| ✗ error | <code>shop-named-right</code> | target <code>2DZkoZH8WMEM</code>')
      expect(stdout).toContain(`${'x'.repeat(400)}`)
      expect(stdout).toContain('(sensitive)')
      expect(stdout + stderr).not.toContain(SECRET.slice(0, 6))
      expect(code).toBe(command === 'plan' ? 1 : 2)
    })
  }
})
