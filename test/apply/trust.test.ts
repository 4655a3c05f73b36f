// Issue 13, items 1 and 4–7, end to end against the emulator (in-process: the same code as the CLI,
// without process start-up): hand changes to undeclared fields survive an apply; saved plans cannot
// be turned into other requests; the state key; concurrent applies on one state; a secret the
// service ignores is not claimed.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runApply } from '../../src/cli/run/apply.js'
import { canonicalJson, sha256 } from '../../src/plan/canonical.js'
import { stateKeyId } from '../../src/secrets/state.js'
import type { Emulator } from '../../src/emulator/index.js'
import { appliedWithLegacyState, apply, captureIo, emulator, envFor, EXAMPLE_SECRETS, exampleConfig, plan, TOKEN, tempdir, writePaths, writes } from '../e2e/helpers.js'
import { startProxy } from '../e2e/proxy.js'

/** Declares only some fields: the target's blackout window without its timezone, the asset's state. */
const PARTIAL = `targets:
  - id: 5HnBvC3xZaQw
    blackout_period: {begin: '07:00', cease: '18:00', weekdays: [6, 7]}
assets:
  - id: 4TrEwQ9aSdFg
    state: HIDDEN
`

/** Someone edits, in the web interface, fields the YAML does not declare. */
function editUndeclared(em: Emulator): void {
  em.mutate('asset', '4TrEwQ9aSdFg', { comment: 'edited in the UI', owners: [{ name: 'payments-team', color: '#0052cc' }, { name: 'ui-editor' }] })
  em.mutate('target', '5HnBvC3xZaQw', { blackout_period: { timezone: 'Europe/Paris' } })
}

function expectEditsKept(em: Emulator): void {
  const asset = em.get('asset', '4TrEwQ9aSdFg') as { state: string; comment: string; owners: { name: string }[] }
  expect(asset.state).toBe('HIDDEN')
  expect(asset.comment).toBe('edited in the UI')
  expect(asset.owners.map((o) => o.name).sort()).toEqual(['payments-team', 'ui-editor'])
  const target = em.get('target', '5HnBvC3xZaQw') as { blackout_period: { begin: string; timezone: string } }
  expect(target.blackout_period.timezone).toBe('Europe/Paris')
  expect(target.blackout_period.begin).toMatch(/^07:00/)
  const sent = Object.fromEntries(writes(em).map((r) => [r.path, r.body as Record<string, unknown>]))
  expect(sent['/discovery/assets/4TrEwQ9aSdFg/']).toMatchObject({ state: 'HIDDEN', comment: 'edited in the UI' })
  expect(sent['/targets/5HnBvC3xZaQw/']).toEqual({ blackout_period: { begin: '07:00', cease: '18:00', weekdays: [6, 7], timezone: 'Europe/Paris', enabled: false } })
}

/** apply on a terminal, whose prompt runs `meanwhile` before answering "yes". */
async function applyConfirmed(em: Emulator, dir: string, meanwhile: () => void, options: { plan?: string } = {}) {
  const io = { ...captureIo({ env: envFor(em), cwd: dir, tty: true }), prompt: async () => (meanwhile(), 'yes') }
  const code = await runApply({ paths: options.plan ? [] : ['.'], format: 'text', ...options }, io)
  return { code, out: io.out(), err: io.err() }
}

describe('no request carries an undeclared value read before the confirmation', () => {
  it('undeclared asset fields and a member of a whole-sent object, edited between plan --out and apply --plan, are kept', async () => {
    const em = await emulator()
    const dir = tempdir({ 'config.yaml': PARTIAL })
    expect((await plan(em, dir, { out: 'plan.json' })).code).toBe(0)
    editUndeclared(em)
    em.clearRequests()
    const run = await apply(em, dir, { plan: 'plan.json' })
    expect(run.err).toBe('')
    expect(run.code).toBe(0)
    expect(writePaths(em)).toEqual(['PATCH /targets/5HnBvC3xZaQw/', 'PUT /discovery/assets/4TrEwQ9aSdFg/'])
    expectEditsKept(em)
  })

  it.each([false, true])('the same edits made while the prompt waits are kept (saved plan: %s)', async (saved) => {
    const em = await emulator()
    const dir = tempdir({ 'config.yaml': PARTIAL })
    if (saved) expect((await plan(em, dir, { out: 'plan.json' })).code).toBe(0)
    em.clearRequests()
    const run = await applyConfirmed(em, dir, () => editUndeclared(em), saved ? { plan: 'plan.json' } : {})
    expect(run.err).toBe('')
    expect(run.code).toBe(0)
    expectEditsKept(em)
  })

  it('a declared field changed while the prompt waits: refused as stale, naming it, nothing sent', async () => {
    const em = await emulator()
    const dir = tempdir({ 'config.yaml': PARTIAL })
    const run = await applyConfirmed(em, dir, () => em.mutate('target', '5HnBvC3xZaQw', { blackout_period: { cease: '19:00' } }))
    expect(run.code).toBe(1)
    expect(run.err).toContain('target 5HnBvC3xZaQw changed on the service while the plan waited for confirmation; nothing was sent.')
    expect(writes(em)).toEqual([])
  })
})

/** Rewrites a saved plan as an attacker without the key would: the edit, and the old plain SHA-256 checksum. */
function tamper(file: string, edit: (document: Record<string, any>) => void): void {
  const document = JSON.parse(readFileSync(file, 'utf8'))
  edit(document)
  delete document.checksum
  writeFileSync(file, JSON.stringify({ ...document, checksum: sha256(canonicalJson(document)) }))
}

describe('a saved plan cannot be turned into other requests', () => {
  it('an edited request path is refused (keyed checksum); nothing is sent', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    expect((await plan(em, dir, { out: 'plan.json' })).code).toBe(0)
    tamper(join(dir, 'plan.json'), (document) => {
      const change = document.plan.changes.find((c: { kind: string }) => c.kind === 'asset')
      change.path = '/discovery/assets/6WsXdC2rFvTg/'
    })
    em.clearRequests()
    const run = await apply(em, dir, { plan: 'plan.json' })
    expect(run.code).toBe(1)
    expect(run.err).toContain('plan.json was modified after it was written (checksum mismatch)')
    expect(em.requests()).toEqual([])
  })

  it('a body edited to hold ${SCANSYNC_API_TOKEN} is refused; the token is sent nowhere', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    expect((await plan(em, dir, { out: 'plan.json' })).code).toBe(0)
    tamper(join(dir, 'plan.json'), (document) => {
      document.resources.find((r: { kind: string }) => r.kind === 'target').fields.site.desc = '${SCANSYNC_API_TOKEN}'
    })
    em.clearRequests()
    const run = await apply(em, dir, { plan: 'plan.json' })
    expect(run.code).toBe(1)
    expect(run.err).toContain('checksum mismatch')
    expect(em.requests()).toEqual([])
  })

  it('without --api-url or SCANSYNC_API_URL: an error, and nothing goes to the URL the plan names', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    expect((await plan(em, dir, { out: 'plan.json' })).code).toBe(0)
    em.clearRequests()
    const run = await apply(em, dir, { plan: 'plan.json' }, { SCANSYNC_API_URL: undefined })
    expect(run.code).toBe(1)
    expect(run.err).toContain('no service URL: pass --api-url URL or set SCANSYNC_API_URL')
    expect(em.requests()).toEqual([])
  })

  it('applied a second time: it says it was already applied, sends nothing, exit 0', async () => {
    const em = await emulator({ obfuscate: true })
    const dir = exampleConfig()
    expect((await plan(em, dir, { out: 'plan.json' }, EXAMPLE_SECRETS)).code).toBe(0)
    expect((await apply(em, dir, { plan: 'plan.json' }, EXAMPLE_SECRETS)).code).toBe(0)
    em.clearRequests()
    const again = await apply(em, dir, { plan: 'plan.json' }, EXAMPLE_SECRETS)
    expect(again.err).toContain('The saved plan was already applied: every field it changes is at its planned value; nothing was sent.')
    expect(again.err).not.toContain('stale')
    expect(again.code).toBe(0)
    expect(writes(em)).toEqual([])
  })

  it('plan and apply with different tokens share a plan through SCANSYNC_STATE_KEY, and not without it', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    expect((await plan(em, dir, { out: 'plan.json' }, { SCANSYNC_STATE_KEY: 'shared-state-key-1' })).code).toBe(0)
    em.rotateToken('apply-Tok3n-2')
    const without = await apply(em, dir, { plan: 'plan.json' }, { SCANSYNC_API_TOKEN: 'apply-Tok3n-2' })
    expect(without.code).toBe(1)
    expect(without.err).toContain('or was written with another key')
    const run = await apply(em, dir, { plan: 'plan.json' }, { SCANSYNC_API_TOKEN: 'apply-Tok3n-2', SCANSYNC_STATE_KEY: 'shared-state-key-1' })
    expect(run.err).toBe('')
    expect(run.code).toBe(0)
    expect(writes(em)).toHaveLength(3)
  })
})

describe('SCANSYNC_STATE_KEY', () => {
  const KEY = { SCANSYNC_STATE_KEY: 'state-Key-0a1b2c3d' }
  const statePath = (dir: string) => join(dir, '.scansync', 'state.json')

  it('with a shared state key, another token reports exactly as the same token; the state records a key id, never the key', async () => {
    const em = await emulator({ obfuscate: true })
    const dir = exampleConfig()
    expect((await apply(em, dir, {}, { ...EXAMPLE_SECRETS, ...KEY })).code).toBe(0)
    const stateText = readFileSync(statePath(dir), 'utf8')
    expect(JSON.parse(stateText).key_id).toBe(stateKeyId(KEY.SCANSYNC_STATE_KEY))
    expect(stateText).not.toContain(KEY.SCANSYNC_STATE_KEY)
    const rotated = { ...EXAMPLE_SECRETS, SHOP_BASIC_AUTH_PASSWORD: 'rotated-Secret-11aa22' }
    const runs = async (extra: Record<string, string>) => [
      await plan(em, dir, { detailedExitcode: true }, { ...EXAMPLE_SECRETS, ...KEY, ...extra }),
      await plan(em, dir, { mode: 'drift' }, { ...EXAMPLE_SECRETS, ...KEY, ...extra }),
      await plan(em, dir, { format: 'json' }, { ...rotated, ...KEY, ...extra }),
    ].map((r) => ({ code: r.code, out: r.out, err: r.err }))
    const sameToken = await runs({})
    expect(sameToken[0]).toMatchObject({ code: 0, err: '' })
    expect(sameToken[1]).toMatchObject({ code: 0, err: '' })
    expect(sameToken[2].out).toContain('changed in YAML')
    em.rotateToken('rotated-Tok3n-9')
    expect(await runs({ SCANSYNC_API_TOKEN: 'rotated-Tok3n-9' })).toEqual(sameToken)
  })

  it('with another key: the secrets "cannot be checked", saying what to set; not changes, not drift, exit 0', async () => {
    const em = await emulator({ obfuscate: true })
    const dir = exampleConfig()
    expect((await apply(em, dir, {}, { ...EXAMPLE_SECRETS, ...KEY })).code).toBe(0)
    for (const run of [
      await plan(em, dir, { detailedExitcode: true }, { ...EXAMPLE_SECRETS, SCANSYNC_STATE_KEY: 'another-Key-99' }),
      await plan(em, dir, { mode: 'drift' }, { ...EXAMPLE_SECRETS, SCANSYNC_STATE_KEY: 'another-Key-99' }),
      await plan(em, dir, { mode: 'drift' }, EXAMPLE_SECRETS),
    ]) {
      expect(run.code).toBe(0)
      expect(run.out).toMatch(/No changes\.|No drift\./)
      expect(run.err).toContain('3 secret fields the service hides cannot be checked: the state was written with another key')
      expect(run.err).toContain('Set SCANSYNC_STATE_KEY')
      expect(run.err).toContain('target 2DZkoZH8WMEM site.basic_auth.password')
    }
    // An apply with another key sends nothing for them and leaves the state as it was.
    const before = readFileSync(statePath(dir), 'utf8')
    const idle = await apply(em, dir, {}, { ...EXAMPLE_SECRETS, SCANSYNC_STATE_KEY: 'another-Key-99' })
    expect(idle.code).toBe(0)
    expect(readFileSync(statePath(dir), 'utf8')).toBe(before)
  })

  it('a state written before key ids (keyed by the token) keeps working, and the next apply re-keys it', async () => {
    const { em, dir } = await appliedWithLegacyState()
    const withKey = { ...EXAMPLE_SECRETS, ...KEY }
    expect(await plan(em, dir, { detailedExitcode: true }, withKey)).toMatchObject({ code: 0, err: '' })
    em.clearRequests()
    expect((await apply(em, dir, {}, withKey)).code).toBe(0)
    expect(writes(em)).toEqual([])
    expect(JSON.parse(readFileSync(statePath(dir), 'utf8')).key_id).toBe(stateKeyId(KEY.SCANSYNC_STATE_KEY))
    em.rotateToken('rotated-Tok3n-7')
    expect(await plan(em, dir, { detailedExitcode: true }, { ...withKey, SCANSYNC_API_TOKEN: 'rotated-Tok3n-7' })).toMatchObject({ code: 0, err: '' })
  })
})

describe('two applies at once on one state file', () => {
  it('keep every entry', async () => {
    const ids = (prefix: string) => Array.from({ length: 6 }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`)
    const left = ids('LeftTgt')
    const right = ids('RghtTgt')
    const em = await emulator({ obfuscate: true, latencyMs: 5, seed: { targets: [...left, ...right].map((id, i) => ({ id, site: { name: `t${i}`, url: `https://t${i}.example.com/` } })) } })
    const config = (list: string[]) =>
      'targets:\n' + list.map((id) => `  - id: ${id}\n    site:\n      basic_auth: {username: scanner, password: "\${PW}", password_is_sensitive: true}\n`).join('')
    const state = join(tempdir(), 'shared-state.json')
    const dirs = [tempdir({ 'config.yaml': config(left) }), tempdir({ 'config.yaml': config(right) })]
    const runs = await Promise.all(dirs.map((dir) => apply(em, dir, { state, parallelism: 2 }, { PW: 'shared-Secret-77' })))
    for (const run of runs) expect(run.code, run.err).toBe(0)
    const recorded = Object.keys(JSON.parse(readFileSync(state, 'utf8')).resources).sort()
    expect(recorded).toEqual([...left, ...right].map((id) => `target/${id}`).sort())
    for (const dir of dirs) expect((await plan(em, dir, { detailedExitcode: true, state }, { PW: 'shared-Secret-77' })).code).toBe(0)
  })
})

describe('a 200 that ignores a new hidden secret', () => {
  it('is reported "not confirmed" (exit 1) and not recorded as in sync', async () => {
    const em = await emulator({ obfuscate: true })
    const dir = exampleConfig()
    expect((await apply(em, dir, {}, EXAMPLE_SECRETS)).code).toBe(0)
    const stateBefore = JSON.parse(readFileSync(join(dir, '.scansync', 'state.json'), 'utf8'))
    // A service that keeps the old password whatever it is sent, and answers 200.
    const proxy = await startProxy(em.url, async (request, forward) => {
      if (request.method !== 'PATCH') return forward()
      const body = JSON.parse(request.body)
      if (body.site?.basic_auth?.password) body.site.basic_auth.password = EXAMPLE_SECRETS.SHOP_BASIC_AUTH_PASSWORD
      return forward(JSON.stringify(body))
    })
    const rotated = { ...EXAMPLE_SECRETS, SHOP_BASIC_AUTH_PASSWORD: 'rotated-Secret-5e2b7f' }
    const run = await apply(em, dir, { format: 'json' }, { ...rotated, SCANSYNC_API_URL: proxy.url })
    expect(run.code).toBe(1)
    const shop = JSON.parse(run.out).changes.find((c: { id: string }) => c.id === '2DZkoZH8WMEM')
    expect(shop.result).toBe('failed')
    expect(shop.error).toMatch(/^not confirmed: the service answered 200, but the obfuscated value of site\.basic_auth\.password is the one it had before/)
    const stateAfter = JSON.parse(readFileSync(join(dir, '.scansync', 'state.json'), 'utf8'))
    expect(stateAfter.resources['target/2DZkoZH8WMEM']['site.basic_auth.password']).toEqual(stateBefore.resources['target/2DZkoZH8WMEM']['site.basic_auth.password'])
    const again = await plan(em, dir, { detailedExitcode: true }, rotated)
    expect(again.code).toBe(2)
    expect(again.out).toContain('site.basic_auth.password: (sensitive) -> (sensitive) (changed in YAML)')
    expect(run.out + run.err).not.toContain(TOKEN)
  })
})
