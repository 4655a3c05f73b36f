// Review round 22 (masked and real paths compared): after a 200, apply compares the answer with
// the configuration and fails the change when a field it planned is still to change ("did not
// apply …"). It named the planned fields by the plan's paths: a saved plan writes a list key
// holding a secret of the run masked (`site.headers[(sensitive)]`), which the answer's path
// (`site.headers[X-A]`) never equals, so a write the service ignored was reported applied, exit 0,
// and only the next plan showed the same change again.
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from '../e2e/helpers.js'
import { startProxy } from '../e2e/proxy.js'

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

describe('a saved plan whose list key holds a secret of the run', () => {
  it('fails the change the service answered 200 to without taking it', async () => {
    const em = await emulator()
    const dir = tempdir({ 'targets.yaml': CONFIG })
    expect((await cli(em, dir, ['apply', '--auto-approve'], ENV)).code).toBe(0)
    // By hand: a header the configuration does not declare, whose name holds the password.
    em.mutate('target', '7QwErTy2UiOp', { site: { headers: [{ name: 'X-A', value: 'hand' }, { name: 'Keep', value: 'k' }] } })
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
