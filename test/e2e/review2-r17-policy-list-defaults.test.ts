// Review round 17, policies: a target to create is checked with the schema's defaults inside the
// objects the YAML writes, and the items of a list it writes are such objects: a header declared
// without `value_is_sensitive`, which the service holds as false once created. They were left
// out, so a rule requiring credential headers to be flagged passed in the plan that created the
// target and failed in every plan after the apply.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const POLICIES = `policies:
  - name: credential-headers-flagged
    description: A credential header is masked in the service's interfaces
    kind: target
    require:
      properties:
        site:
          properties:
            headers:
              items:
                if: {properties: {name: {const: Authorization}}}
                then: {properties: {value_is_sensitive: {const: true}}}
  - name: form-login-flagged
    description: Login form values are masked
    kind: target
    level: warning
    require:
      properties:
        site: {properties: {form_login: {items: {properties: {value_is_sensitive: {const: true}}}}}}
`

const CONFIG = `targets:
  - site:
      name: Partner portal
      url: https://partners.example.com/
      headers: [{name: Authorization, value: Bearer-partner-portal}, {name: X-Tenant, value: acme}]
      form_login: [{name: user, value: scanner}, {name: pass, value: pw-value, value_is_sensitive: true}]
`

/** The policy lines of a run, the target named alike before and after its creation. */
const violations = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('config.yaml'))
    .map((line) => line.replace(/: target [^:]+:\/\/[^:]+: |: target \w+: /, ': target T: '))

describe('a target to create: defaults inside the items of the lists it writes', () => {
  it('gives the same verdict before the creation and after it', async () => {
    const em = await emulator()
    const dir = tempdir({ 'config.yaml': CONFIG, 'policies.yaml': POLICIES })
    const before = await cli(em, dir, ['plan', '.'])
    const expected = [
      'config.yaml:2:5: policy credential-headers-flagged: target T: A credential header is masked in the service\'s interfaces (site.headers[0].value_is_sensitive: must be equal to constant true)',
      'config.yaml:2:5: policy form-login-flagged: target T: Login form values are masked (site.form_login[0].value_is_sensitive: must be equal to constant true) [warning]',
    ]
    expect(violations(before.stderr)).toEqual(expected)
    expect(before.code).toBe(1)

    // Created without the rules (they refuse the apply), then planned with them.
    const created = tempdir({ 'config.yaml': CONFIG })
    expect((await cli(em, created, ['apply', '.', '--auto-approve'])).code).toBe(0)
    const after = await cli(em, dir, ['plan', '.'])
    expect(violations(after.stderr)).toEqual(expected)
    expect(after.code).toBe(1)
  })
})
