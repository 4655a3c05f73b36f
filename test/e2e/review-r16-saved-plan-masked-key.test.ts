// Review round 16: a saved plan is applied when nothing changed since it was made. A list key
// (a header's name) holding a secret of another resource of the run (a short password, `-`) is
// masked in the saved plan (`site.headers[(sensitive)]`); apply --plan learns only the secrets
// of the resources it applies, so the fresh read named the field `site.headers[X-A]`, matched
// none of the plan's and refused the plan as stale ("changed on the service since it was made")
// on every run, though nothing had changed.
import { describe, expect, it } from 'vitest'
import { apply, emulator, plan, tempdir, writes } from './helpers.js'

const CONFIG = `targets:
  - id: 7QwErTy2UiOp
    site:
      headers:
        - {name: Keep, value: k}
  - id: 2DZkoZH8WMEM
    site:
      basic_auth: {username: u, password: '\${PW}'}
`
const ENV = { PW: '-' }

describe('a saved plan whose list key holds a secret of another resource', () => {
  it('applies when nothing changed since it was made, and the plan after it is empty', async () => {
    const em = await emulator()
    const dir = tempdir({ 'targets.yaml': CONFIG })
    expect((await apply(em, dir, {}, ENV)).code).toBe(0)
    // By hand: a header the configuration does not declare, whose name holds the password.
    em.mutate('target', '7QwErTy2UiOp', { site: { headers: [{ name: 'X-A', value: 'hand' }, { name: 'Keep', value: 'k' }] } })
    const saved = await plan(em, dir, { out: 'p.json' }, ENV)
    expect(saved.code, saved.err).toBe(0)
    expect(saved.out).toContain('site.headers[')
    em.clearRequests()
    const run = await apply(em, dir, { plan: 'p.json' }, ENV)
    expect(run.err).not.toContain('stale')
    expect(run.code, run.err).toBe(0)
    expect(writes(em).map((r) => `${r.method} ${r.path}`)).toEqual(['PATCH /targets/7QwErTy2UiOp/'])
    expect((await plan(em, dir, { detailedExitcode: true }, ENV)).code).toBe(0)
  })

  it('is still refused when the list changed on the service in between', async () => {
    const em = await emulator()
    const dir = tempdir({ 'targets.yaml': CONFIG })
    expect((await apply(em, dir, {}, ENV)).code).toBe(0)
    em.mutate('target', '7QwErTy2UiOp', { site: { headers: [{ name: 'X-A', value: 'hand' }, { name: 'Keep', value: 'k' }] } })
    expect((await plan(em, dir, { out: 'p.json' }, ENV)).code).toBe(0)
    em.mutate('target', '7QwErTy2UiOp', { site: { headers: [{ name: 'X-B', value: 'other' }, { name: 'Keep', value: 'k' }] } })
    em.clearRequests()
    const run = await apply(em, dir, { plan: 'p.json' }, ENV)
    expect(run.code).toBe(1)
    expect(run.err).toContain('stale')
    expect(writes(em)).toEqual([])
  })
})
