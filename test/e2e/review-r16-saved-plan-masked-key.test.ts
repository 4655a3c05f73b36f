// Review round 16: a saved plan is applied when nothing changed since it was made. A list key
// (a header's name) holding a secret of another resource of the run (a short password, `-`) is
// masked in the saved plan (`site.headers[(sensitive)]`); apply --plan learns only the secrets
// of the resources it applies, so the fresh read named the field `site.headers[X-A]`, matched
// none of the plan's and refused the plan as stale ("changed on the service since it was made")
// on every run, though nothing had changed. Review round 22: after a 200, apply names the fields
// it planned as the fresh read does; under the plan's masked path a write the service ignored
// was reported applied, exit 0, and only the next plan showed the same change again.
import { describe, expect, it } from 'vitest'
import { apply, cli, emulator, plan, tempdir, writes } from './helpers.js'
import type { Emulator } from '../../src/emulator/index.js'
import { startProxy } from './proxy.js'

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

/** Applied, then a header the configuration does not declare added by hand, its name the password. */
async function withHandHeader(): Promise<{ em: Emulator; dir: string }> {
  const em = await emulator()
  const dir = tempdir({ 'targets.yaml': CONFIG })
  expect((await apply(em, dir, {}, ENV)).code).toBe(0)
  em.mutate('target', '7QwErTy2UiOp', { site: { headers: [{ name: 'X-A', value: 'hand' }, { name: 'Keep', value: 'k' }] } })
  return { em, dir }
}

describe('a saved plan whose list key holds a secret of another resource', () => {
  it('applies when nothing changed since it was made, and the plan after it is empty', async () => {
    const { em, dir } = await withHandHeader()
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
    const { em, dir } = await withHandHeader()
    expect((await plan(em, dir, { out: 'p.json' }, ENV)).code).toBe(0)
    em.mutate('target', '7QwErTy2UiOp', { site: { headers: [{ name: 'X-B', value: 'other' }, { name: 'Keep', value: 'k' }] } })
    em.clearRequests()
    const run = await apply(em, dir, { plan: 'p.json' }, ENV)
    expect(run.code).toBe(1)
    expect(run.err).toContain('stale')
    expect(writes(em)).toEqual([])
  })

  it('fails the change the service answered 200 to without taking it', async () => {
    const { em, dir } = await withHandHeader()
    // A service that answers 200 to a write of the headers and keeps the ones it has.
    const proxy = await startProxy(em.url, (request, forward) => {
      if (request.method !== 'PATCH') return forward()
      const body = JSON.parse(request.body) as { site?: Record<string, unknown> }
      if (body.site) delete body.site.headers
      return forward(JSON.stringify(body))
    })
    const env = { ...ENV, SCANSYNC_API_URL: proxy.url }
    const saved = await cli(em, dir, ['plan', '--out', 'p.json'], env)
    expect(saved.code, saved.stderr).toBe(0)
    expect(saved.stdout).toContain('site.headers[(sensitive)]')
    const run = await cli(em, dir, ['apply', '--plan', 'p.json', '--auto-approve'], env)
    expect(run.stdout, run.stderr).toContain('failed: the service answered 200 but did not apply site.headers[')
    expect(run.code).toBe(1)
    // Not recorded as done: the next plan shows the same change.
    expect((await cli(em, dir, ['plan', '--detailed-exitcode'], env)).code).toBe(2)
  })
})
