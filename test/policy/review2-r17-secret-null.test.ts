// Rules see a secret's text as "(sensitive)", but a secret left unset as null (after-apply.ts masks
// texts only): `password: {const: null}` ("no password stored on the service") checks what it says,
// and is not refused as a content keyword on a secret, as `{const: s3cret}` or `{minLength: 12}` are.
import { afterAll, describe, expect, it } from 'vitest'
import { load, removeTestdirs } from '../config/helpers.js'
import { cli, emulator, exampleConfig, EXAMPLE_SECRETS } from '../e2e/helpers.js'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

afterAll(removeTestdirs)

const at = (rule: string) => `{properties: {site: {properties: {basic_auth: {properties: {password: ${rule}}}}}}}`

const RULES = `policies:
  - name: no-stored-password
    kind: target
    require: ${at('{const: null}')}
  - name: unset-or-masked
    kind: target
    require: ${at('{enum: [null, "(sensitive)"]}')}
`

describe('a rule comparing a secret with null', () => {
  it('is no error, and a content keyword beside it still is', async () => {
    expect((await load({ 'rules.yaml': RULES })).diagnostics).toEqual([])
    const refused = await load({ 'rules.yaml': `policies:\n  - name: guess\n    kind: target\n    require: ${at('{enum: [null, demo]}')}\n` })
    expect(refused.diagnostics.map((d) => d.message)).toEqual([`policy guess: require: rules see a target's site.basic_auth.password as "(sensitive)", never its value (a secret), so enum cannot be checked on it`])
  })

  it('fires on the target holding a password only', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    writeFileSync(join(dir, 'rules.yaml'), RULES)
    const run = await cli(em, dir, ['plan'], EXAMPLE_SECRETS)
    expect(run.stderr).not.toContain('cannot be checked')
    const fired = [...run.stderr.matchAll(/policy ([\w-]+): target (\w+)/g)].map((m) => `${m[1]} ${m[2]}`)
    expect(fired).toEqual(['no-stored-password 2DZkoZH8WMEM'])
  })
})
