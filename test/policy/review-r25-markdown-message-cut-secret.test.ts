// The PR comment (`plan --format markdown`) and the nightly report (`audit --format markdown`)
// shorten a violation's message to 500 characters. The cut was made before the run's redaction,
// so a secret of the run that the message held across the cut (a rule's description quoting a
// variable's value) lost its end, and the output step, which redacts whole secrets, let its first
// characters through: `… sekrit-value-1… (67 more characters)`. Every other text of the comment
// is redacted before it is shortened (RenderOptions.redact).
import { describe, expect, it } from 'vitest'
import { cli, sharedEmulator, tempdir } from '../e2e/helpers.js'

const em = sharedEmulator()
const SECRET = 'Zq8-secret-Kx31v'

// 485 characters, a space, then the secret: the 500-character cut falls inside it.
const configuration = () =>
  tempdir({
    'targets.yaml': `targets:\n  - id: 2DZkoZH8WMEM\n    site:\n      name: Shop\n      headers:\n        - {name: X-Scanner-Key, value: "\${SCANNER_KEY}", value_is_sensitive: true}\n`,
    'rules.yaml':
      `policies:\n  - name: shop-named-right\n    kind: target\n` +
      `    description: "${'x'.repeat(485)} ${SECRET} is the key"\n` +
      `    require: {properties: {site: {properties: {name: {const: Other}}}}}\n`,
  })

describe.concurrent('a violation message cut for the markdown report', () => {
  for (const command of ['plan', 'audit']) {
    it(`${command} --format markdown: no part of a secret at the cut`, async () => {
      const dir = configuration()
      const { stdout, stderr, code } = await cli(em(), dir, [command, '--format', 'markdown'], { SCANNER_KEY: SECRET })
      expect(stdout).toContain('| ✗ error | <code>shop-named-right</code> | target <code>2DZkoZH8WMEM</code>')
      expect(stdout).toContain(`${'x'.repeat(400)}`)
      expect(stdout).toContain('(sensitive)')
      expect(stdout + stderr).not.toContain(SECRET.slice(0, 6))
      expect(code).toBe(command === 'plan' ? 1 : 2)
    })
  }
})
