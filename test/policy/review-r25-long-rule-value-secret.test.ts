// A violation names the value a rule wanted (`must be equal to constant "…"`), cut at 200
// characters when longer. The cut was made before the run's redaction: a rule's value holding a
// secret of the run across the cut (a long expected text quoting a variable's value) lost the
// secret's end, and the output step, which redacts whole secrets, printed its first characters in
// every format: `site.name: must be equal to constant "xxx… sekrit-val…"`.
import { describe, expect, it } from 'vitest'
import { cli, sharedEmulator, tempdir } from '../e2e/helpers.js'

const em = sharedEmulator()
const SECRET = 'Zq8-secret-Kx31v'

// 190 characters, a space, then the secret: the 200-character cut (of the JSON text, its quote included) falls inside it.
const configuration = () =>
  tempdir({
    'targets.yaml': `targets:\n  - id: 2DZkoZH8WMEM\n    site:\n      name: Shop\n      headers:\n        - {name: X-Scanner-Key, value: "\${SCANNER_KEY}", value_is_sensitive: true}\n`,
    'rules.yaml':
      `policies:\n  - name: shop-named-right\n    kind: target\n    description: The shop has its long name\n` +
      `    require: {properties: {site: {properties: {name: {const: "${'x'.repeat(190)} ${SECRET}"}}}}}\n`,
  })

describe.concurrent("a long value of a rule holding a secret, in a violation's message", () => {
  for (const format of ['text', 'json', 'markdown', 'github']) {
    it(`plan --format ${format}: no part of the secret`, async () => {
      const { stdout, stderr, code } = await cli(em(), configuration(), ['plan', '--format', format], { SCANNER_KEY: SECRET })
      expect(stdout + stderr).toContain('shop-named-right')
      // JSON escapes the quotes.
      expect(stdout + stderr).toMatch(/must be equal to constant \\?"\(sensitive\)\\?"/)
      expect(stdout + stderr).not.toContain(SECRET.slice(0, 6))
      expect(code).toBe(1)
    })
  }

  it('a long value without a secret is still shown, cut', async () => {
    const { stderr, code } = await cli(em(), configuration(), ['plan'], { SCANNER_KEY: 'another-Value-9Qz' })
    expect(stderr).toContain(`site.name: must be equal to constant "${'x'.repeat(190)} Zq8-secr…)`)
    expect(code).toBe(1)
  })
})
