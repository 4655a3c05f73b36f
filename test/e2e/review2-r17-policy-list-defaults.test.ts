// Review round 17, policies: a target to create is checked with the schema's defaults inside the
// objects the YAML writes, and the items of a list it writes are such objects: a header declared
// without `value_is_sensitive`, which the service holds as false once created. They were left
// out, so a rule requiring credential headers to be flagged passed in the plan that created the
// target and failed in every plan after the apply.
// And a basic authentication written without `password_is_sensitive` is checked, before its
// creation, with the schemas' default (false); the emulator left the flag out of what it created,
// so a rule requiring passwords flagged failed in the plan that created the target and passed in
// every plan after. service-api.md lists the flag with no default; the schemas give false, and the
// emulator fills every other masking flag with false: the emulator was the odd side.
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

const FLAG_POLICIES = `policies:
  - name: basic-auth-password-masked
    description: A basic authentication password is masked in the service's interfaces
    kind: target
    require: {properties: {site: {properties: {basic_auth: {properties: {password_is_sensitive: {const: true}}}}}}}
`

const FLAG_CONFIG = `targets:
  - site:
      name: Back office
      url: https://backoffice.example.com/
      has_basic_auth: true
      basic_auth: {username: scanner, password: back-office-pw}
`

/** The policy lines of a run, the target named alike before and after its creation. */
const violations = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('config.yaml'))
    .map((line) => line.replace(/: target [^:]+:\/\/[^:]+: |: target \w+: /, ': target T: '))

/**
 * The rules' verdicts on a target to create, in the plan that creates it and in a plan after it
 * was created (without the rules, which would refuse the apply): they must be the same.
 */
async function verdictsBeforeAndAfter(config: string, policies: string): Promise<[string[], string[], number | null]> {
  const em = await emulator()
  const dir = tempdir({ 'config.yaml': config, 'policies.yaml': policies })
  const before = await cli(em, dir, ['plan', '.'])
  expect(before.code).toBe(1)
  expect((await cli(em, tempdir({ 'config.yaml': config }), ['apply', '.', '--auto-approve'])).code).toBe(0)
  const after = await cli(em, dir, ['plan', '.'])
  return [violations(before.stderr), violations(after.stderr), after.code]
}

describe('a target to create: defaults inside the objects and list items it writes', () => {
  it('headers and login fields: the same verdict before the creation and after it', async () => {
    const expected = [
      'config.yaml:2:5: policy credential-headers-flagged: target T: A credential header is masked in the service\'s interfaces (site.headers[0].value_is_sensitive: must be equal to constant true)',
      'config.yaml:2:5: policy form-login-flagged: target T: Login form values are masked (site.form_login[0].value_is_sensitive: must be equal to constant true) [warning]',
    ]
    expect(await verdictsBeforeAndAfter(CONFIG, POLICIES)).toEqual([expected, expected, 1])
  })

  it('a basic authentication\'s masking flag: the same verdict before the creation and after it', async () => {
    const expected = [
      "config.yaml:2:5: policy basic-auth-password-masked: target T: A basic authentication password is masked in the service's interfaces (site.basic_auth.password_is_sensitive: must be equal to constant true)",
    ]
    expect(await verdictsBeforeAndAfter(FLAG_CONFIG, FLAG_POLICIES)).toEqual([expected, expected, 1])
  })
})
