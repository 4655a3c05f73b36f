// Review round 16: the plan says exactly what apply sends. A URL the YAML writes in another form
// than the service's (upper-case host, a default port) was shown in the plan as the comparison
// form (lower-cased, port dropped) while the PATCH sent it as written: the reviewed value was not
// the value sent.
import { describe, expect, it } from 'vitest'
import { apply, emulator, plan, tempdir, writes } from './helpers.js'

const CONFIG = `targets:
  - id: 7QwErTy2UiOp
    site:
      url: HTTPS://Staging.Shop.Example.COM:443/a/
      form_login_url: https://Login.Example.com:443/in
`

describe('a URL the YAML writes in another form than the comparison form', () => {
  it('plan JSON shows the value the PATCH sends, and the plan after the apply is empty', async () => {
    const em = await emulator()
    const dir = tempdir({ 'targets.yaml': CONFIG })
    const planned = await plan(em, dir, { format: 'json' })
    expect(planned.code, planned.err).toBe(0)
    const fields = JSON.parse(planned.out).changes[0].fields as { path: string; after: unknown }[]
    em.clearRequests()
    expect((await apply(em, dir)).code).toBe(0)
    const [patch] = writes(em)
    const site = (patch!.body as { site: Record<string, unknown> }).site
    expect(fields.find((f) => f.path === 'site.url')?.after).toBe(site.url)
    expect(fields.find((f) => f.path === 'site.form_login_url')?.after).toBe(site.form_login_url)
    expect(site.url).toBe('HTTPS://Staging.Shop.Example.COM:443/a/')
    expect((await plan(em, dir, { detailedExitcode: true })).code).toBe(0)
  })

  it('the text plan shows it as written too', async () => {
    const em = await emulator()
    const dir = tempdir({ 'targets.yaml': CONFIG })
    const planned = await plan(em, dir)
    expect(planned.out).toContain('site.url: "https://staging.shop.example.com/" -> "HTTPS://Staging.Shop.Example.COM:443/a/"')
  })
})
