// Review round 17, policies: a target created with a basic authentication written without
// `password_is_sensitive` is checked, before its creation, with the schemas' default (false). The
// emulator left the flag out of what it created, so a rule requiring passwords to be flagged
// failed in the plan that created the target and passed in every plan after. service-api.md lists
// the flag with no default; the schemas give false, and the emulator fills every other masking
// flag (headers, login fields, API settings) with false: the emulator was the odd side.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const POLICIES = `policies:
  - name: basic-auth-password-masked
    description: A basic authentication password is masked in the service's interfaces
    kind: target
    require: {properties: {site: {properties: {basic_auth: {properties: {password_is_sensitive: {const: true}}}}}}}
`

const CONFIG = `targets:
  - site:
      name: Back office
      url: https://backoffice.example.com/
      has_basic_auth: true
      basic_auth: {username: scanner, password: back-office-pw}
`

const violations = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('config.yaml'))
    .map((line) => line.replace(/: target [^:]+:\/\/[^:]+: |: target \w+: /, ': target T: '))

describe('a target to create with basic authentication', () => {
  it('gives the same verdict about its masking flag before the creation and after it', async () => {
    const em = await emulator()
    const dir = tempdir({ 'config.yaml': CONFIG, 'policies.yaml': POLICIES })
    const expected = [
      "config.yaml:2:5: policy basic-auth-password-masked: target T: A basic authentication password is masked in the service's interfaces (site.basic_auth.password_is_sensitive: must be equal to constant true)",
    ]
    const before = await cli(em, dir, ['plan', '.'])
    expect(violations(before.stderr)).toEqual(expected)

    const created = tempdir({ 'config.yaml': CONFIG })
    expect((await cli(em, created, ['apply', '.', '--auto-approve'])).code).toBe(0)
    const after = await cli(em, dir, ['plan', '.'])
    expect(violations(after.stderr)).toEqual(expected)
    expect(after.code).toBe(1)
  })
})
