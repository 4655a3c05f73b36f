// The audit's Markdown wrote a rule's name escaped for Markdown (`_` as `\_`, `*` as `\*`) but not
// redacted first: a name holding a secret of the run with such a character no longer matched the
// output step's redaction, and the secret reached the Rules table (and the violations table) in
// clear. The name is now redacted before it is escaped, as the description and message are.
import { describe, expect, it } from 'vitest'
import { cli, sharedEmulator, tempdir } from '../e2e/helpers.js'
import { AUDITED_TARGETS } from './audit-rules.js'

const em = sharedEmulator()
const SECRET = 'sec_ret*Value_9b7e2c'

describe('audit markdown never prints a secret held in a rule name', () => {
  it('Rules and violations tables redact the name before escaping it', async () => {
    const targets = AUDITED_TARGETS.replace('site: {name: Payments API}', 'site: {name: "${SITE_NAME}"}')
    const policies = `policies:\n  - name: "agents-${SECRET}"\n    description: "d-${SECRET}"\n    kind: agent\n    require: {required: [teams], properties: {teams: {minItems: 1}}}\n`
    const dir = tempdir({ 'targets.yaml': targets, 'policies.yaml': policies })
    const result = await cli(em(), dir, ['audit', '--format', 'markdown'], { SITE_NAME: SECRET })
    expect(result.code).toBe(2)
    const out = result.stdout
    expect(out).toContain('| Rule | Level | Kind |')
    expect(out).toContain('| Policy |')
    for (const form of [SECRET, 'sec\\_ret', 'Value\\_9b7e2c', 'ret\\*Value']) expect(out).not.toContain(form)
    expect(out).toContain('<code>agents-(sensitive)</code>')
  })
})
