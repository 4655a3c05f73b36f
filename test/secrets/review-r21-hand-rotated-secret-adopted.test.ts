// Review round 21 (a repository lived in for a year): a hidden secret rotated by hand in the
// service (an incident), then set to that same new value in the CI's secret store. The state
// records the old value and token; the service already holds the YAML's value, so the write
// answers the token it had before. That is no sign of a secret the service ignored (its value
// before the write was not the recorded one): the apply records it, and the next plan is empty,
// instead of every apply failing "not confirmed" from then on. The same holds when an older
// branch's state file wins a merge over the one recording the rotation, and when the answer to
// the write that rotated it was lost (the service took it; the state did not record it).
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli, emulator, EXAMPLE_SECRETS, exampleConfig } from '../e2e/helpers.js'
import { startProxy } from '../e2e/proxy.js'

/** What an apply says when a new secret is answered with the token the service had before, which was not the recorded one. */
const ADOPTED = 'it held before this write, which was not the one last applied: recorded as in sync'

/** The value the shop's basic-auth password is rotated to by hand. */
const ROTATED = 'incident-Rotated-5c8e1a'

/** The example applied against a service that obfuscates secrets, then the shop's basic-auth password rotated by hand there. */
async function rotatedByHand() {
  const em = await emulator({ obfuscate: true })
  const dir = exampleConfig()
  expect((await cli(em, dir, ['apply', '--auto-approve'], EXAMPLE_SECRETS)).code).toBe(0)
  em.mutate('target', '2DZkoZH8WMEM', { site: { basic_auth: { password: ROTATED } } })
  return { em, dir, state: join(dir, '.scansync', 'state.json') }
}

describe('a secret changed by hand, then in the YAML to the same value', () => {
  it('is applied and recorded: the next plan is empty', async () => {
    const { em, dir } = await rotatedByHand()
    const rotated = ROTATED
    const drift = await cli(em, dir, ['drift'], EXAMPLE_SECRETS)
    expect(drift.code).toBe(2)
    expect(drift.stdout).toContain('site.basic_auth.password: (sensitive) -> (sensitive) (changed on the service)')

    const adopted = { ...EXAMPLE_SECRETS, SHOP_BASIC_AUTH_PASSWORD: rotated }
    const applied = await cli(em, dir, ['apply', '--auto-approve'], adopted)
    expect(applied.stderr).not.toContain('not confirmed')
    expect(applied.stdout).toContain('✓ target 2DZkoZH8WMEM "Shop (production)" applied')
    // The same token before and after: it may have held this value, or not have taken it; said, to be checked.
    expect(applied.stdout).toContain(`the service answered the obfuscated value of site.basic_auth.password ${ADOPTED}`)
    expect(applied.code).toBe(0)
    expect(em.get('target', '2DZkoZH8WMEM')).toMatchObject({ site: { basic_auth: { password: rotated } } })
    const after = await cli(em, dir, ['plan', '--detailed-exitcode'], adopted)
    expect(after.stdout).toContain('No changes.')
    expect(after.code).toBe(0)
    expect((await cli(em, dir, ['drift'], adopted)).code).toBe(0)
    for (const run of [drift, applied, after]) expect(run.stdout + run.stderr).not.toContain(rotated)
  })

  it('changed by hand, then in the YAML to another value: applied, and the next plan is empty', async () => {
    // The service already holds the rotated value, unknown to the state, and the YAML rotates to another one.
    const { em, dir } = await rotatedByHand()
    const applied = await cli(em, dir, ['apply', '--auto-approve'], { ...EXAMPLE_SECRETS, SHOP_BASIC_AUTH_PASSWORD: 'next-Rotated-9d7f3b' })
    expect(applied.code).toBe(0)
    // Another token after the write: taken, nothing to say.
    expect(applied.stdout).not.toContain(ADOPTED)
    expect((await cli(em, dir, ['plan', '--detailed-exitcode'], { ...EXAMPLE_SECRETS, SHOP_BASIC_AUTH_PASSWORD: 'next-Rotated-9d7f3b' })).code).toBe(0)
  })

  it('a state file an older branch wrote over the newer one: the rotated secret is applied again and recorded', async () => {
    const em = await emulator({ obfuscate: true })
    const dir = exampleConfig()
    const state = join(dir, '.scansync', 'state.json')
    expect((await cli(em, dir, ['apply', '--auto-approve'], EXAMPLE_SECRETS)).code).toBe(0)
    const older = readFileSync(state, 'utf8')
    const rotated = { ...EXAMPLE_SECRETS, SHOP_BASIC_AUTH_PASSWORD: 'branch-Rotated-2b4d6f' }
    expect((await cli(em, dir, ['apply', '--auto-approve'], rotated)).code).toBe(0)
    writeFileSync(state, older)
    const applied = await cli(em, dir, ['apply', '--auto-approve'], rotated)
    expect(applied.stdout).not.toContain('not confirmed')
    expect(applied.code).toBe(0)
    expect((await cli(em, dir, ['plan', '--detailed-exitcode'], rotated)).code).toBe(0)
  })

  it('a service that keeps the value it had (set by hand) and answers 200: recorded, as nothing can tell it apart, but said in every format', async () => {
    const { em, dir, state } = await rotatedByHand()
    // Each write's password is the one the service had: it keeps its own.
    const proxy = await startProxy(em.url, (request, forward) => {
      if (request.method !== 'PATCH') return forward()
      const body = JSON.parse(request.body) as { site?: { basic_auth?: Record<string, unknown> } }
      if (body.site?.basic_auth) body.site.basic_auth.password = ROTATED
      return forward(JSON.stringify(body))
    })
    const third = { ...EXAMPLE_SECRETS, SHOP_BASIC_AUTH_PASSWORD: 'third-Value-4f2a8d', SCANSYNC_API_URL: proxy.url }
    for (const format of ['text', 'json', 'markdown', 'github']) {
      const before = readFileSync(state, 'utf8')
      const applied = await cli(em, dir, ['apply', '--auto-approve', '--format', format], third)
      expect(applied.code, applied.stdout + applied.stderr).toBe(0)
      expect(applied.stdout).toContain(ADOPTED)
      expect(applied.stdout).not.toContain('third-Value-4f2a8d')
      writeFileSync(state, before)
    }
  })

  // The last attack wave: when the same write also met a field the service did not take, the change
  // failed ("did not apply site.desc") and the warning was dropped, though the secret was recorded
  // as in sync all the same: the next plan showed only the description, silent on the secret.
  it('in a write that also fails on another field: failed, with its warning, in every format', async () => {
    const { em, dir, state } = await rotatedByHand()
    const shop = join(dir, 'targets', 'shop.yaml')
    writeFileSync(shop, readFileSync(shop, 'utf8').replace('desc: Customer-facing web shop', 'desc: The web shop'))
    // The service does not take the description.
    const proxy = await startProxy(em.url, (request, forward) => {
      if (request.method !== 'PATCH') return forward()
      const body = JSON.parse(request.body) as { site?: Record<string, unknown> }
      if (body.site) delete body.site.desc
      return forward(JSON.stringify(body))
    })
    const adopted = { ...EXAMPLE_SECRETS, SHOP_BASIC_AUTH_PASSWORD: ROTATED, SCANSYNC_API_URL: proxy.url }
    const before = readFileSync(state, 'utf8')
    for (const format of ['text', 'json', 'markdown', 'github']) {
      const applied = await cli(em, dir, ['apply', '--auto-approve', '--format', format], adopted)
      expect(applied.code, applied.stdout + applied.stderr).toBe(1)
      expect(applied.stdout).toContain('did not apply site.desc')
      expect(applied.stdout).toContain(ADOPTED)
      expect(applied.stdout + applied.stderr).not.toContain(ROTATED)
      // Recorded as in sync: the next plan shows the description alone.
      const next = await cli(em, dir, ['plan'], adopted)
      expect(next.stdout).toContain('site.desc')
      expect(next.stdout).not.toContain('site.basic_auth.password')
      writeFileSync(state, before)
    }
  })

  it('a rotation whose answer was lost (the service took it): the next apply records it', async () => {
    const em = await emulator({ obfuscate: true })
    const dir = exampleConfig()
    expect((await cli(em, dir, ['apply', '--auto-approve'], EXAMPLE_SECRETS)).code).toBe(0)
    const rotated = { ...EXAMPLE_SECRETS, SHOP_BASIC_AUTH_PASSWORD: 'lost-Rotated-7e3a9c' }
    em.setFaults([{ type: 'drop-mid', count: 10, method: 'PATCH' }])
    expect((await cli(em, dir, ['apply', '--auto-approve'], rotated)).code).toBe(1)
    em.setFaults([])
    expect(em.get('target', '2DZkoZH8WMEM')).toMatchObject({ site: { basic_auth: { password: 'lost-Rotated-7e3a9c' } } })
    const applied = await cli(em, dir, ['apply', '--auto-approve'], rotated)
    expect(applied.stdout).not.toContain('not confirmed')
    expect(applied.code).toBe(0)
    expect((await cli(em, dir, ['plan', '--detailed-exitcode'], rotated)).code).toBe(0)
  })
})
