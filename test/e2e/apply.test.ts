// Issue 5, end to end: apply against the emulator. Exit codes, flags and refusals through the real
// CLI; the rest in-process (same code, no process start-up).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { createAjv } from '../../src/schema/ajv.js'
import type { Emulator } from '../../src/emulator/index.js'
import { ensureBuilt } from '../config/helpers.js'
import { apply, cli, emulator, exampleConfig, EXAMPLE_SECRETS, plan, tempdir, writePaths, writes } from './helpers.js'
import { startProxy } from './proxy.js'

beforeAll(ensureBuilt, 120_000)

const lineIn = (file: string, needle: string): number => readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(needle)) + 1
const edit = (file: string, from: string, to: string) => {
  const text = readFileSync(file, 'utf8')
  if (!text.includes(from)) throw new Error(`${from} not in ${file}`)
  writeFileSync(file, text.split(from).join(to))
}

/** The JSON plan of `dir` now: the paths of the resources it would write. */
async function plannedPaths(em: Emulator, dir: string, env: Record<string, string> = {}): Promise<string[]> {
  const run = await plan(em, dir, { format: 'json' }, env)
  expect(run.code, run.err).toBe(0)
  return (JSON.parse(run.out).changes as { method: string; path: string }[]).map((c) => `${c.method} ${c.path}`).sort()
}

describe('after apply, nothing is left to plan', () => {
  it.each([false, true])('examples/config on the example seed (obfuscate: %s): one write per planned change, then plan --detailed-exitcode exits 0', async (obfuscate) => {
    const em = await emulator({ obfuscate })
    const dir = exampleConfig()
    const planned = await plannedPaths(em, dir, EXAMPLE_SECRETS)
    expect(planned.length).toBeGreaterThanOrEqual(3)
    em.clearRequests()
    const applied = await cli(em, dir, ['apply', '--auto-approve'], EXAMPLE_SECRETS)
    expect(applied.stderr).toBe('')
    expect(applied.code).toBe(0)
    expect(applied.stdout).toContain(`Apply: ${planned.length} applied, 0 failed, 0 not applied, ${8 - planned.length} unchanged.`)
    expect(writePaths(em)).toEqual(planned)
    em.clearRequests()
    const again = await cli(em, dir, ['plan', '--detailed-exitcode'], EXAMPLE_SECRETS)
    expect(again).toMatchObject({ code: 0, stderr: '' })
    expect(writes(em)).toEqual([])
    // And apply with nothing to do sends nothing and exits 0.
    const idle = await apply(em, dir, {}, EXAMPLE_SECRETS)
    expect(idle.code).toBe(0)
    expect(idle.out).toContain('No changes.')
    expect(writes(em)).toEqual([])
  })
})

describe('requests: one write per changed resource, minimal PATCH, whole PUT', () => {
  it('changes made by hand are put back with the smallest bodies', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    expect((await apply(em, dir)).code).toBe(0)
    const promoOwners = (em.get('asset', '8YuIoP3lKjHg') as { owners: unknown }).owners
    em.mutate('target', '2DZkoZH8WMEM', { site: { name: 'Shop (renamed by hand)' } })
    em.mutate('target', '5HnBvC3xZaQw', { blackout_period: { begin: '09:30' }, site: { api_scan_settings: { media_type: 'application/graphql' } } })
    em.mutate('asset', '8YuIoP3lKjHg', { state: 'ACTIVE' })
    em.mutate('agent', '6NbVcX4zLkJh', { name: 'porto-renamed' })
    em.clearRequests()

    const run = await apply(em, dir)
    expect(run.code, run.err).toBe(0)
    expect(run.out).toContain('Apply: 4 applied, 0 failed, 0 not applied, 4 unchanged.')
    const sent = Object.fromEntries(writes(em).map((r) => [`${r.method} ${r.path}`, r.body]))
    expect(Object.keys(sent).sort()).toEqual([
      'PATCH /scanning-agents/6NbVcX4zLkJh/',
      'PATCH /targets/2DZkoZH8WMEM/',
      'PATCH /targets/5HnBvC3xZaQw/',
      'PUT /discovery/assets/8YuIoP3lKjHg/',
    ])
    // Only the changed member of site.
    expect(sent['PATCH /targets/2DZkoZH8WMEM/']).toEqual({ site: { name: 'Shop (production)' } })
    // begin changed: the whole blackout period (YAML first, then live); api_scan_settings inside
    // site, where this target keeps it, holding only the changed member.
    expect(sent['PATCH /targets/5HnBvC3xZaQw/']).toEqual({
      site: { api_scan_settings: { media_type: 'application/json' } },
      blackout_period: { begin: '08:00', cease: '18:00', weekdays: [6, 7], timezone: 'UTC', enabled: false },
    })
    // The PUT is whole: the owners the YAML leaves out are sent as they are, and survive.
    expect(sent['PUT /discovery/assets/8YuIoP3lKjHg/']).toEqual({
      name: 'promo.example.com',
      state: 'HIDDEN',
      owners: [{ name: 'marketing-agency', color: '#c5def5' }],
      comment: 'Marketing microsite, scanned by the agency',
      labels: [],
    })
    expect((em.get('asset', '8YuIoP3lKjHg') as { owners: unknown }).owners).toEqual(promoOwners)
    expect(sent['PATCH /scanning-agents/6NbVcX4zLkJh/']).toEqual({ name: 'dc-porto-agent' })
    expect(await plannedPaths(em, dir)).toEqual([])
  })

  it('a header the service holds twice is planned, and the apply leaves it once', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    expect((await apply(em, dir)).code).toBe(0)
    const header = { name: 'X-Scanner', value: 'scansync' }
    em.mutate('target', '2DZkoZH8WMEM', { site: { headers: [header, header] } })
    const drift = await plan(em, dir, { mode: 'drift' })
    expect(drift.code).toBe(2)
    expect(drift.out).toContain('site.headers[X-Scanner]')
    em.clearRequests()
    expect((await apply(em, dir)).code).toBe(0)
    expect(writes(em).map((r) => r.body)).toEqual([
      { site: { headers: [{ name: 'X-Scanner', value: 'scansync', value_is_sensitive: false, allow_testing: false, authentication: false, authentication_secondary: false }] } },
    ])
    expect((em.get('target', '2DZkoZH8WMEM') as { site: { headers: unknown[] } }).site.headers).toHaveLength(1)
    expect(await plannedPaths(em, dir)).toEqual([])
  })

  it('an asset declaring only its state keeps its owners, labels and comment', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    writeFileSync(join(dir, 'assets.yaml'), 'assets:\n  - id: 4TrEwQ9aSdFg\n    state: HIDDEN\n')
    const before = em.get('asset', '4TrEwQ9aSdFg') as Record<string, unknown>
    const run = await apply(em, dir, { kinds: ['asset'] })
    expect(run.code, run.err).toBe(0)
    expect(writes(em).map((r) => r.body)).toEqual([
      {
        name: 'gateway.payments.example.com',
        state: 'HIDDEN',
        owners: [{ name: 'payments-team', color: '#0052cc' }, { name: 'security', color: '#0e8a16' }],
        comment: 'Public payments API gateway',
        // Labels are account-wide: this one has the colour the shop target gave it.
        labels: [{ name: 'production', color: '#b60205' }],
      },
    ])
    const after = em.get('asset', '4TrEwQ9aSdFg') as Record<string, unknown>
    expect(after.state).toBe('HIDDEN')
    for (const field of ['owners', 'labels', 'comment', 'name']) expect(after[field]).toEqual(before[field])
  })
})

describe('partial failure', () => {
  it('one change refused with 400: the others land, the failure is named with the service message and the YAML place, exit 1; a second apply sends only it', async () => {
    const em = await emulator()
    // A service that lists no agents: the plan cannot check the agent id the shop refers to (it
    // would be a problem at its line), so the service's 400 is what says it is unknown.
    const proxy = await startProxy(em.url, async (request, forward) => (request.method === 'GET' && request.path === '/scanning-agents/' ? { status: 404, body: '{"detail": "Not found."}' } : forward()))
    const through = { SCANSYNC_API_URL: proxy.url }
    const dir = exampleConfig()
    const shop = join(dir, 'targets', 'shop.yaml')
    edit(shop, 'scanning_agent: {id: 3kLx8Qy7Pb2m}', 'scanning_agent: {id: NoSuchAgent1}')
    const first = await cli(em, dir, ['apply', '--auto-approve'], through)
    expect(first.code).toBe(1)
    const failure = first.stdout.split('\n').find((l) => l.includes('2DZkoZH8WMEM') && l.includes('failed'))
    expect(failure, first.stdout).toBeDefined()
    expect(first.stdout).toContain(`scanning_agent: Invalid pk "NoSuchAgent1" - object does not exist. (targets/shop.yaml:${lineIn(shop, 'NoSuchAgent1')})`)
    expect(first.stdout).toContain('Apply: 2 applied, 1 failed, 0 not applied, 5 unchanged.')
    // The others landed.
    expect(em.get('asset', '9fGh2Kd8LmQz')).toMatchObject({ state: 'ARCHIVED', comment: 'Decommissioned in October' })
    expect((em.get('agent', '3kLx8Qy7Pb2m') as { teams: { id: string }[] }).teams.map((t) => t.id).sort()).toEqual(['Tm1Zz9Yy8Xx7', 'Tm8Kq2Xa9Lp3'])
    expect((em.get('target', '2DZkoZH8WMEM') as { site: { name: string } }).site.name).toBe('Shop')

    em.clearRequests()
    const second = await cli(em, dir, ['apply', '--auto-approve', '--format', 'json'], through)
    expect(second.code).toBe(1)
    expect(writePaths(em)).toEqual(['PATCH /targets/2DZkoZH8WMEM/'])
    const report = JSON.parse(second.stdout)
    expect(createAjv().getSchema('plan.schema.json')!(report)).toBe(true)
    expect(report.changes).toHaveLength(1)
    expect(report.changes[0]).toMatchObject({ kind: 'target', id: '2DZkoZH8WMEM', result: 'failed' })
    expect(report.changes[0].error).toContain('Invalid pk "NoSuchAgent1" - object does not exist.')
  })
})

describe('field errors of a 400 are placed at their YAML line', () => {
  it('nested members, list items, and api_scan_settings sent inside site', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    writeFileSync(join(dir, 'targets', 'payments-api.yaml'), readFileSync(join(dir, 'targets', 'payments-api.yaml'), 'utf8').replace('media_type: application/json', 'media_type: application/graphql'))
    // A service with stricter rules than the emulator's.
    const proxy = await startProxy(em.url, async (request, forward) => {
      if (request.method !== 'PATCH') return forward()
      const body =
        request.path === '/targets/2DZkoZH8WMEM/'
          ? { site: { form_login: [{}, { value: ['Ensure this field has no more than 8 characters.'] }], name: ['Name taken.'] } }
          : { site: { api_scan_settings: { media_type: ['"application/graphql" is not a valid choice.'] } } }
      return { status: 400, body: JSON.stringify(body) }
    })
    const run = await apply(em, dir, { format: 'json' }, { SCANSYNC_API_URL: proxy.url, ...EXAMPLE_SECRETS })
    expect(run.code).toBe(1)
    const errors = Object.fromEntries(JSON.parse(run.out).changes.map((c: { id: string; error?: string }) => [c.id, c.error]))
    const shop = join(dir, 'targets', 'shop.yaml')
    const payments = join(dir, 'targets', 'payments-api.yaml')
    expect(errors['2DZkoZH8WMEM']).toContain(`site.form_login.1.value: Ensure this field has no more than 8 characters. (targets/shop.yaml:${lineIn(shop, 'SHOP_LOGIN_PASSWORD')})`)
    expect(errors['2DZkoZH8WMEM']).toContain(`site.name: Name taken. (targets/shop.yaml:${lineIn(shop, 'name: Shop (production)')})`)
    expect(errors['5HnBvC3xZaQw']).toContain(`api_scan_settings.media_type: "application/graphql" is not a valid choice. (targets/payments-api.yaml:${lineIn(payments, 'media_type')})`)
  })
})

describe('faults', () => {
  it('429 (Retry-After), 503 and dropped connections on a share of requests: apply converges, each change lands once in effect', async () => {
    const targets = Array.from({ length: 24 }, (_, i) => `FaultTgt${String(i).padStart(4, '0')}`)
    const assets = Array.from({ length: 12 }, (_, i) => `FaultAst${String(i).padStart(4, '0')}`)
    const em = await emulator({
      seed: {
        targets: targets.map((id, i) => ({ id, site: { name: `old ${i}`, url: `https://t${i}.example.com/` }, labels: [{ name: 'old' }] })),
        assets: assets.map((id, i) => ({ id, name: `a${i}.example.com`, state: 'NEW', owners: [{ name: 'ops' }], comment: 'kept' })),
      },
    })
    // Every target and every other asset changes; the rest are declared unchanged.
    const yaml =
      'targets:\n' +
      targets.map((id, i) => `  - id: ${id}\n    site: {name: new ${i}}\n    labels: [new, {name: prod, color: red}]\n`).join('') +
      'assets:\n' +
      assets.map((id, i) => `  - id: ${id}\n    state: ${i % 2 === 0 ? 'ACTIVE' : 'NEW'}\n`).join('')
    const dir = tempdir({ 'config.yaml': yaml })
    const changed = [...targets.map((id) => `/targets/${id}/`), ...assets.filter((_, i) => i % 2 === 0).map((id) => `/discovery/assets/${id}/`)]

    em.setFaults([
      { type: '429', count: 1, retryAfter: 1, method: 'PATCH' },
      { type: '429', share: 0.15, retryAfter: 0 },
      { type: '503', share: 0.1 },
      { type: 'drop', share: 0.1 },
      { type: 'drop-mid', share: 0.1, method: 'PATCH' },
      { type: 'truncate', share: 0.05 },
    ])
    const run = await cli(em, dir, ['apply', '--auto-approve'], { SCANSYNC_MAX_ATTEMPTS: '12' })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toContain(`Apply: ${changed.length} applied, 0 failed, 0 not applied, ${assets.length / 2} unchanged.`)

    const log = em.requests()
    const faults = new Set(log.map((r) => r.fault).filter(Boolean))
    expect(faults).toEqual(new Set(['429', '503', 'drop', 'drop-mid', 'truncate']))
    const written = log.filter((r) => r.method === 'PATCH' || r.method === 'PUT')
    expect([...new Set(written.map((r) => r.path))].sort()).toEqual([...changed].sort())
    for (const path of changed) {
      const attempts = written.filter((r) => r.path === path)
      // One clean attempt per change; every extra attempt answered a fault.
      expect(attempts.filter((r) => !r.fault), path).toHaveLength(1)
      expect(attempts.filter((r) => !r.fault)[0].status).toBe(200)
    }
    em.setFaults([])
    expect(await plannedPaths(em, dir)).toEqual([])
    expect(em.get('target', targets[0])).toMatchObject({ site: { name: 'new 0' } })
    expect(em.get('asset', assets[0])).toMatchObject({ state: 'ACTIVE', comment: 'kept', owners: [expect.objectContaining({ name: 'ops' })] })
  })
})

describe('saved plans', () => {
  it('a stale saved plan is refused, naming the resource, and nothing is sent', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    const saved = await cli(em, dir, ['plan', '--out', 'plan.json'])
    expect(saved.code, saved.stderr).toBe(0)
    expect(saved.stderr).toContain('Saved the plan to plan.json')
    em.mutate('target', '2DZkoZH8WMEM', { report_type: 'pci' })
    em.clearRequests()
    const run = await cli(em, dir, ['apply', '--plan', 'plan.json', '--auto-approve'])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('the saved plan is stale: target 2DZkoZH8WMEM changed on the service since it was made; nothing was sent.')
    expect(em.requests().length).toBeGreaterThan(0)
    expect(writes(em)).toEqual([])
  })

  it('a fresh saved plan applies; it holds ${NAME} references, never a secret, and literal ${ survives', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    const staging = join(dir, 'targets', 'shop.yaml')
    edit(staging, 'name: Shop (staging)', 'name: Shop (staging)\n      desc: "Costs $${PRICE} a month"')
    const saved = await cli(em, dir, ['plan', '--out', 'plan.json'], EXAMPLE_SECRETS)
    expect(saved.code, saved.stderr).toBe(0)
    const text = readFileSync(join(dir, 'plan.json'), 'utf8')
    expect(createAjv().getSchema('saved-plan.schema.json')!(JSON.parse(text))).toBe(true)
    expect(text).toContain('${SHOP_BASIC_AUTH_PASSWORD:-demo-basic-auth-password}')
    expect(text).toContain('${PAYMENTS_CLIENT_SECRET:-demo-client-secret}')
    expect(text).toContain('Costs $${PRICE} a month')
    for (const secret of Object.values(EXAMPLE_SECRETS)) expect(text).not.toContain(secret)

    em.clearRequests()
    const run = await cli(em, dir, ['apply', '--plan', 'plan.json', '--auto-approve'], EXAMPLE_SECRETS)
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    // apply --plan shows the plan as plan did: sets as the items added and removed.
    expect(saved.stdout).toMatch(/^ {4}labels:\n {8}\+ /m)
    expect(run.stdout.startsWith(saved.stdout)).toBe(true)
    // A saved plan holds no requests (apply rebuilds them): what it plans is in its changes.
    const planned = (JSON.parse(text).plan.changes as { method: string; path: string }[]).map((c) => `${c.method} ${c.path}`).sort()
    expect(JSON.stringify(JSON.parse(text).resources)).not.toContain('"request"')
    expect(writePaths(em)).toEqual(planned)
    expect((em.get('target', '7QwErTy2UiOp') as { site: { desc: string } }).site.desc).toBe('Costs ${PRICE} a month')
    expect((em.get('target', '2DZkoZH8WMEM') as { site: { basic_auth: { password: string } } }).site.basic_auth.password).toBe(EXAMPLE_SECRETS.SHOP_BASIC_AUTH_PASSWORD)
    expect(await plannedPaths(em, dir, EXAMPLE_SECRETS)).toEqual([])
  })

  it('a saved plan is not stale when the service only lists a set in another order', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    expect((await plan(em, dir, { out: 'plan.json' }, EXAMPLE_SECRETS)).code).toBe(0)
    const planned = JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')).resources.map((r: { id: string }) => r.id)
    expect(planned).toContain('5HnBvC3xZaQw')
    em.mutate('target', '5HnBvC3xZaQw', { labels: [{ name: 'api' }, { name: 'production' }] })
    em.mutate('agent', '3kLx8Qy7Pb2m', { teams: [{ id: 'Tm8Kq2Xa9Lp3' }] })
    const run = await apply(em, dir, { plan: 'plan.json' }, EXAMPLE_SECRETS)
    expect(run.err).toBe('')
    expect(run.code).toBe(0)
  })

  it('a saved plan applies to the service it was made against, however its URL is written, and to no other', async () => {
    const em = await emulator()
    const other = await emulator()
    const dir = exampleConfig()
    expect((await plan(em, dir, { out: 'plan.json', apiUrl: `${em.url.toUpperCase()}//` })).code).toBe(0)
    const refused = await apply(other, dir, { plan: 'plan.json' })
    expect(refused.code).toBe(1)
    expect(refused.err).toContain(`the saved plan was made against ${em.url.toUpperCase()}//, not ${other.url}`)
    expect(writes(other)).toEqual([])
    const run = await apply(em, dir, { plan: 'plan.json' })
    expect(run.code, run.err).toBe(0)
    expect(writes(em)).toHaveLength(3)
  })

  it('--plan with paths, --kind or --id is refused (the saved plan says what is applied), nothing read or sent', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    expect((await plan(em, dir, { out: 'plan.json' })).code).toBe(0)
    em.clearRequests()
    for (const extra of [{ paths: ['targets'] }, { kinds: ['asset' as const] }, { ids: ['2DZkoZH8WMEM'] }]) {
      const run = await apply(em, dir, { plan: 'plan.json', ...extra })
      expect(run.code).toBe(1)
      expect(run.err).toContain('--plan applies the saved plan whole: leave out configuration paths, --kind and --id')
    }
    expect(em.requests()).toEqual([])
  })

  it('a saved plan changed after it was written is refused (checksum)', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    expect((await cli(em, dir, ['plan', '--out', 'plan.json'])).code).toBe(0)
    edit(join(dir, 'plan.json'), '"name": "Shop (production)"', '"name": "Shop (tampered)"')
    em.clearRequests()
    const run = await cli(em, dir, ['apply', '--plan', 'plan.json', '--auto-approve'])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('plan.json was modified after it was written (checksum mismatch)')
    expect(em.requests()).toEqual([])
  })
})

describe('confirmation and limits', () => {
  it('without a terminal and without --auto-approve: refused, naming --auto-approve, nothing sent', async () => {
    const em = await emulator()
    const run = await cli(em, exampleConfig(), ['apply'])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('--auto-approve')
    expect(writes(em)).toEqual([])
  })

  it('--max-changes: a plan with more changes is refused, nothing sent; one within the limit applies', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    const refused = await cli(em, dir, ['apply', '--auto-approve', '--max-changes', '2'])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('the plan has 3 changes, more than --max-changes 2; nothing was sent')
    expect(writes(em)).toEqual([])
    const within = await cli(em, dir, ['apply', '--auto-approve', '--max-changes', '3'])
    expect(within.code).toBe(0)
    expect(writes(em)).toHaveLength(3)
  })

  it.each([
    ['yes', 0, 3],
    ['no', 1, 0],
    ['y', 1, 0],
  ])('on a terminal, answered %j: exit %i, %i writes', async (answer, code, count) => {
    const em = await emulator()
    const run = await apply(em, exampleConfig(), { autoApprove: false }, {}, { tty: true, answer })
    expect(run.code).toBe(code)
    expect(writes(em)).toHaveLength(count)
    if (count === 0) expect(run.err).toContain('Apply cancelled; nothing was sent.')
  })
})

describe('secrets', () => {
  it('rotation: changed in YAML is sent; changed on the service is shown so; the state holds only HMACs and OBFUSCATED tokens', async () => {
    const em = await emulator({ obfuscate: true })
    const dir = exampleConfig()
    expect((await apply(em, dir, {}, EXAMPLE_SECRETS)).code).toBe(0)
    expect(await plannedPaths(em, dir, EXAMPLE_SECRETS)).toEqual([])

    // The environment value changes.
    const rotated = { ...EXAMPLE_SECRETS, SHOP_BASIC_AUTH_PASSWORD: 'rotated-Secret-5e2b7f' }
    const planned = await plan(em, dir, { format: 'json' }, rotated)
    const fields = JSON.parse(planned.out).changes.flatMap((c: { id: string; fields: object[] }) => c.fields.map((f) => ({ id: c.id, ...f })))
    expect(fields).toEqual([
      expect.objectContaining({ id: '2DZkoZH8WMEM', path: 'site.basic_auth.password', before: '(sensitive)', after: '(sensitive)', sensitive: true, reason: 'changed in YAML' }),
    ])
    em.clearRequests()
    expect((await apply(em, dir, {}, rotated)).code).toBe(0)
    expect(writes(em).map((r) => [r.path, r.body])).toEqual([
      ['/targets/2DZkoZH8WMEM/', { site: { basic_auth: { username: 'scanner', password: '(redacted)', password_is_sensitive: true } } }],
    ])
    expect((em.get('target', '2DZkoZH8WMEM') as { site: { basic_auth: { password: string } } }).site.basic_auth.password).toBe(rotated.SHOP_BASIC_AUTH_PASSWORD)
    expect(await plannedPaths(em, dir, rotated)).toEqual([])

    // Someone changes it on the service.
    em.mutate('target', '2DZkoZH8WMEM', { site: { basic_auth: { password: 'typed-in-the-ui' } } })
    const drift = await plan(em, dir, { mode: 'drift' }, rotated)
    expect(drift.code).toBe(2)
    expect(drift.out).toContain('site.basic_auth.password: (sensitive) -> (sensitive) (changed on the service)')
    expect((await apply(em, dir, {}, rotated)).code).toBe(0)
    expect((em.get('target', '2DZkoZH8WMEM') as { site: { basic_auth: { password: string } } }).site.basic_auth.password).toBe(rotated.SHOP_BASIC_AUTH_PASSWORD)

    const stateText = readFileSync(join(dir, '.scansync', 'state.json'), 'utf8')
    const state = JSON.parse(stateText)
    expect(createAjv().getSchema('state.schema.json')!(state)).toBe(true)
    const all = Object.values(state.resources as Record<string, Record<string, { hmac: string; live: string }>>).flatMap((r) => Object.entries(r))
    // The values applied from variables, by HMAC alone (review round 19): recognised once rotated.
    for (const [, entry] of all.filter(([path]) => path.startsWith('variables['))) expect(Object.keys(entry)).toEqual(['hmac'])
    const entries = all.filter(([path]) => !path.startsWith('variables[')).map(([, entry]) => entry)
    // The three secrets of the example: two passwords of the shop target, the API login payload.
    expect(entries.length).toBe(3)
    for (const entry of entries) {
      expect(Object.keys(entry).sort()).toEqual(['hmac', 'live'])
      expect(entry.hmac).toMatch(/^[0-9a-f]{64}$/)
      expect(entry.live).toMatch(/^OBFUSCATED_[0-9a-f]+$/)
    }
    for (const secret of [...Object.values(rotated), EXAMPLE_SECRETS.SHOP_BASIC_AUTH_PASSWORD, 'typed-in-the-ui']) expect(stateText).not.toContain(secret)
  })

  it('a state file that cannot be written: the report of what was applied still comes, then the error, exit 1', async () => {
    const em = await emulator({ obfuscate: true })
    const dir = exampleConfig()
    // In-process, the temporary file's name is known: a directory in its way makes the write fail.
    mkdirSync(join(dir, '.scansync', `state.json.${process.pid}.tmp`), { recursive: true })
    const run = await apply(em, dir, {}, EXAMPLE_SECRETS)
    expect(run.code).toBe(1)
    expect(run.out).toContain('Apply: 4 applied, 0 failed, 0 not applied, 4 unchanged.')
    expect(run.err).toMatch(/^Error: the changes above were sent, but the secrets state could not be written to .*state\.json/m)
    expect(run.err).not.toContain('unexpected failure')
    expect(writes(em)).toHaveLength(4)
  })

  it('--state puts the state file elsewhere', async () => {
    const em = await emulator({ obfuscate: true })
    const dir = exampleConfig()
    expect((await apply(em, dir, { state: 'elsewhere/s.json' }, EXAMPLE_SECRETS)).code).toBe(0)
    expect(JSON.parse(readFileSync(join(dir, 'elsewhere', 's.json'), 'utf8')).resources).toHaveProperty(['target/2DZkoZH8WMEM'])
    // Without --state, nothing is tracked yet: the secrets are planned again.
    const fresh = await plan(em, dir, { detailedExitcode: true }, EXAMPLE_SECRETS)
    expect(fresh.code).toBe(2)
    expect(fresh.out).toContain('(not yet tracked)')
    expect((await plan(em, dir, { detailedExitcode: true, state: 'elsewhere/s.json' }, EXAMPLE_SECRETS)).code).toBe(0)
  })
})

describe('a 200 is checked against what was sent', () => {
  it('an answer that is not the resource is not claimed as applied: exit 1, and the next apply sends it again', async () => {
    const em = await emulator({ faults: [{ type: 'not-resource', method: 'PATCH', path: '/scanning-agents/', count: 1 }] })
    const dir = exampleConfig()
    const first = await cli(em, dir, ['apply', '--auto-approve'])
    expect(first.code).toBe(1)
    expect(first.stdout).toMatch(/✗ agent 3kLx8Qy7Pb2m "dc-lisbon-agent" failed: the service answered 200 with something other than the resource/)
    expect(first.stdout).toContain('Apply: 2 applied, 1 failed, 0 not applied, 5 unchanged.')
    em.clearRequests()
    const second = await apply(em, dir)
    expect(second.code, second.out).toBe(0)
    expect(writePaths(em)).toEqual(['PATCH /scanning-agents/3kLx8Qy7Pb2m/'])
  })

  it('a field the service answers 200 for but does not take is named, and the change counts as failed', async () => {
    const em = await emulator()
    // A service that ignores site.name in PATCH requests (and answers as if all was well).
    const proxy = await startProxy(em.url, async (request, forward) => {
      if (request.method !== 'PATCH' || !request.path.startsWith('/targets/')) return forward()
      const body = JSON.parse(request.body)
      delete body.site?.name
      return forward(JSON.stringify(body))
    })
    const run = await apply(em, exampleConfig(), { format: 'json' }, { SCANSYNC_API_URL: proxy.url })
    expect(run.code).toBe(1)
    const shop = JSON.parse(run.out).changes.find((c: { id: string }) => c.id === '2DZkoZH8WMEM')
    expect(shop).toMatchObject({ result: 'failed', error: 'the service answered 200 but did not apply site.name' })
    // What it did take, it kept.
    expect((em.get('target', '2DZkoZH8WMEM') as { labels: { name: string }[] }).labels.map((l) => l.name).sort()).toEqual(['pci', 'production'])
  })
})
