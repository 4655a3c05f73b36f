// Review round 26 (upgrading from the first release): its state has no key id (keyed by the API
// token). The README says the next apply with SCANSYNC_STATE_KEY re-keys it; an `apply --plan`
// (the GitLab recipe's only apply) never did unless the plan changed every resource holding a
// recorded secret, so the state stayed keyed by the token, and a rotated token made every hidden
// secret unreadable by the key that was set for that very purpose.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { apply, appliedWithLegacyState, EXAMPLE_SECRETS, plan } from './helpers.js'

const KEY = { SCANSYNC_STATE_KEY: 'state-Key-r26-0123456789abcdef' }

describe('a state from before key ids, applied to by a saved plan with SCANSYNC_STATE_KEY set', () => {
  it('is re-keyed, also for the recorded secrets of resources the plan does not change', async () => {
    const { em, dir, state } = await appliedWithLegacyState()
    const assets = join(dir, 'assets.yaml')
    const text = readFileSync(assets, 'utf8')
    writeFileSync(assets, text.replace('Decommissioned in October', 'Decommissioned in November'))
    const env = { ...EXAMPLE_SECRETS, ...KEY }
    const saved = await plan(em, dir, { out: 'p.json' }, env)
    expect(saved.code, saved.err).toBe(0)
    const run = await apply(em, dir, { plan: 'p.json' }, env)
    expect(run.code, run.err).toBe(0)
    expect(JSON.parse(readFileSync(state, 'utf8')).key_id).toMatch(/^[0-9a-f]{16}$/)
    const after = await plan(em, dir, { detailedExitcode: true }, env)
    expect(after.code, after.out + after.err).toBe(0)
    expect(after.err).not.toContain('cannot be checked')
  })

  it('with nothing to change is re-keyed too, as a plain apply with nothing to send is', async () => {
    const { em, dir, state } = await appliedWithLegacyState()
    const env = { ...EXAMPLE_SECRETS, ...KEY }
    const saved = await plan(em, dir, { out: 'p.json' }, env)
    expect(saved.code, saved.err).toBe(0)
    const run = await apply(em, dir, { plan: 'p.json' }, env)
    expect(run.code, run.err).toBe(0)
    expect(JSON.parse(readFileSync(state, 'utf8')).key_id).toMatch(/^[0-9a-f]{16}$/)
  })
})
