// Review round 21 (attacks on the round's last changes): a secret changed by hand, then in the YAML
// to the same value, answered with the token the service had before, is recorded as in sync with a
// warning (it may be the service that kept its own value; no plan can tell). When the same write
// also met a field the service did not take, the change failed ("did not apply site.desc") and the
// warning was dropped, though the secret was recorded as in sync all the same: the next plan shows
// only the description, silent on the secret the service may not hold.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli, emulator, EXAMPLE_SECRETS, exampleConfig } from '../e2e/helpers.js'
import { startProxy } from '../e2e/proxy.js'

const ADOPTED = 'it held before this write, which was not the one last applied: recorded as in sync'

describe('a secret changed by hand and in the YAML, in a write that also fails on another field', () => {
  it('is recorded with its warning, in every format', async () => {
    const em = await emulator({ obfuscate: true })
    const dir = exampleConfig()
    expect((await cli(em, dir, ['apply', '--auto-approve'], EXAMPLE_SECRETS)).code).toBe(0)
    const rotated = 'incident-Rotated-5c8e1a'
    em.mutate('target', '2DZkoZH8WMEM', { site: { basic_auth: { password: rotated } } })
    const shop = join(dir, 'targets', 'shop.yaml')
    writeFileSync(shop, readFileSync(shop, 'utf8').replace('desc: Customer-facing web shop', 'desc: The web shop'))
    // The service does not take the description.
    const proxy = await startProxy(em.url, (request, forward) => {
      if (request.method !== 'PATCH') return forward()
      const body = JSON.parse(request.body) as { site?: Record<string, unknown> }
      if (body.site) delete body.site.desc
      return forward(JSON.stringify(body))
    })
    const adopted = { ...EXAMPLE_SECRETS, SHOP_BASIC_AUTH_PASSWORD: rotated, SCANSYNC_API_URL: proxy.url }
    const state = join(dir, '.scansync', 'state.json')
    const before = readFileSync(state, 'utf8')
    for (const format of ['text', 'json', 'markdown', 'github']) {
      const applied = await cli(em, dir, ['apply', '--auto-approve', '--format', format], adopted)
      expect(applied.code, applied.stdout + applied.stderr).toBe(1)
      expect(applied.stdout).toContain('did not apply site.desc')
      expect(applied.stdout).toContain(ADOPTED)
      expect(applied.stdout + applied.stderr).not.toContain(rotated)
      // Recorded as in sync: the next plan shows the description alone.
      const next = await cli(em, dir, ['plan'], adopted)
      expect(next.stdout).toContain('site.desc')
      expect(next.stdout).not.toContain('site.basic_auth.password')
      writeFileSync(state, before)
    }
  })
})
