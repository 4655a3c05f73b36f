// Review round 26 (the late additions): the re-key's drop of records it cannot re-key took a run
// without --kind or --id as one over "the whole configuration"; but a run over one file of a
// folder (`scansync apply config/shop.yaml`) writes that folder's state, which holds the records of
// the folder's other files too. Such an apply with SCANSYNC_STATE_KEY dropped them: the staging
// target's password, unchanged, was then planned as "not yet tracked" and sent once more, where the
// README says records of a resource not declared stay in the file.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'

const shop = `targets:
  - id: 2DZkoZH8WMEM
    site:
      has_basic_auth: true
      basic_auth: {username: scanner, password: "\${PW}", password_is_sensitive: true}
`
const staging = `targets:
  - id: 7QwErTy2UiOp
    site:
      has_basic_auth: true
      basic_auth: {username: scanner, password: "\${STAGING_PW}", password_is_sensitive: true}
`
const SECRETS = { PW: 'basic-Pw-8Kq3zRt6', STAGING_PW: 'staging-Pw-3Lm8Wq2x' }
const STATE_KEY = 'state-Key-9d3a7c1e5b2f4a60'

describe('an apply of one file of a folder, re-keying the folder\'s state', () => {
  it('keeps the records of the folder\'s other files', async () => {
    const em = await emulator({ obfuscate: true })
    const dir = tempdir({ 'shop.yaml': shop, 'staging.yaml': staging })
    const first = await cli(em, dir, ['apply', '--auto-approve'], SECRETS)
    expect(first.code, first.stderr).toBe(0)
    const env = { ...SECRETS, SCANSYNC_STATE_KEY: STATE_KEY }
    const one = await cli(em, dir, ['apply', '--auto-approve', 'shop.yaml'], env)
    expect(one.code, one.stderr).toBe(0)
    const state = JSON.parse(readFileSync(join(dir, '.scansync', 'state.json'), 'utf8'))
    expect(Object.keys(state.resources).sort()).toEqual(['target/2DZkoZH8WMEM', 'target/7QwErTy2UiOp'])
    const plan = await cli(em, dir, ['plan', '--detailed-exitcode'], env)
    expect(plan.stdout + plan.stderr).not.toContain('not yet tracked')
    expect(plan.code, plan.stdout + plan.stderr).toBe(0)
  })
})
