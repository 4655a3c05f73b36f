// Issue 5, property: whatever someone changes on the service (through the emulator, as a person
// in the web interface would), apply puts back what examples/config declares, writes only
// declared resources, once each, and a plan afterwards finds nothing.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { EmulatorKind } from '../../src/emulator/index.js'
import { apply, cli, emulator, exampleConfig, EXAMPLE_SECRETS, plan, tempdir, writes } from './helpers.js'

const text = fc.string({ unit: fc.constantFrom(...'abcXYZ 09-_.:$é'.split('')), minLength: 1, maxLength: 10 })
const time = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`)
// Colours only on labels no declaration gives a colour (labels are account-wide).
const labels = fc.uniqueArray(fc.constantFrom('production', 'staging', 'pci', 'api', 'marketing', 'legacy'), { maxLength: 4 }).chain((names) =>
  fc.tuple(...names.map((name) => (['pci', 'api'].includes(name) ? fc.constant({ name }) : fc.constantFrom({ name }, { name, color: 'blue' }, { name, color: '#123abc' })))),
)
const owners = fc.uniqueArray(fc.constantFrom('platform-team', 'payments-team', 'marketing-agency', 'ops'), { maxLength: 3 }).map((names) => names.map((name) => ({ name })))
const agentRef = fc.constantFrom(null, { id: '3kLx8Qy7Pb2m' }, { id: '6NbVcX4zLkJh' }, { id: '2PqRsT6uVwXy' })
const teams = fc.uniqueArray(fc.constantFrom('Tm8Kq2Xa9Lp3', 'Tm1Zz9Yy8Xx7', 'TmQ4Ww7Ee2Rr'), { maxLength: 3 }).map((ids) => ids.map((id) => ({ id })))

type Mutation = [EmulatorKind, string, object]
const m = (kind: EmulatorKind, id: string, change: fc.Arbitrary<object>): fc.Arbitrary<Mutation> => change.map((c) => [kind, id, c])

const SHOP = '2DZkoZH8WMEM'
const PAYMENTS = '5HnBvC3xZaQw'
const STAGING = '7QwErTy2UiOp'
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  m('target', SHOP, text.map((name) => ({ site: { name } }))),
  m('target', SHOP, fc.option(text, { nil: null }).map((desc) => ({ site: { desc } }))),
  m('target', SHOP, fc.constantFrom('https://SHOP.example.com/', 'https://shop.example.com:443', 'https://elsewhere.example.com/').map((url) => ({ site: { url } }))),
  m('target', SHOP, labels.map((l) => ({ labels: l }))),
  m('target', SHOP, fc.record({ begin: time, weekdays: fc.uniqueArray(fc.integer({ min: 0, max: 7 }), { maxLength: 4 }) }, { requiredKeys: [] }).map((b) => ({ blackout_period: b }))),
  m('target', SHOP, agentRef.map((a) => ({ scanning_agent: a }))),
  m('target', SHOP, fc.constantFrom('normal', 'full', 'lightning').map((p) => ({ scan_profile: p }))),
  m('target', SHOP, text.map((password) => ({ site: { basic_auth: { password } } }))),
  m('target', SHOP, text.map((value) => ({ site: { form_login: [{ name: 'email', value: 'scanner@example.com' }, { name: 'password', value, value_is_sensitive: true }] } }))),
  m('target', SHOP, fc.array(fc.record({ name: fc.constantFrom('X-Scanner', 'X-Other'), value: text }), { maxLength: 2 }).map((headers) => ({ site: { headers } }))),
  m('target', SHOP, fc.uniqueArray(fc.constantFrom('https://shop.example.com/logout', 'https://shop.example.com/admin/*', 'https://x/'), { maxLength: 3 }).map((b) => ({ site: { blacklist: b } }))),
  m('target', SHOP, fc.record({ report_type: fc.constantFrom('pci', 'owasp_web_2025'), fail_fast: fc.boolean(), incremental: fc.boolean() }, { requiredKeys: [] })),
  m('target', PAYMENTS, fc.record({ media_type: fc.constantFrom('application/json', 'application/graphql'), api_login_payload: text, token_prefix: fc.constantFrom('Bearer', 'Token'), custom_api_parameters: fc.constantFrom([], [{ name: 'tenant', value: 'other' }]) }, { requiredKeys: [] }).map((a) => ({ site: { api_scan_settings: a } }))),
  m('target', PAYMENTS, fc.record({ enabled: fc.boolean(), cease: time, timezone: fc.constantFrom('UTC', 'Europe/Lisbon') }, { requiredKeys: [] }).map((b) => ({ blackout_period: b }))),
  m('target', PAYMENTS, fc.constantFrom('single', 'api').map((type) => ({ type }))),
  m('target', STAGING, fc.record({ site: text.map((name) => ({ name })), labels, scanning_agent: agentRef }, { requiredKeys: [] })),
  m('asset', '9fGh2Kd8LmQz', fc.record({ state: fc.constantFrom('NEW', 'ACTIVE', 'HIDDEN'), owners, comment: fc.option(text, { nil: null }), labels }, { requiredKeys: [] })),
  m('asset', '4TrEwQ9aSdFg', fc.record({ owners, labels, comment: fc.constantFrom(null, '', 'other') }, { requiredKeys: [] })),
  m('asset', '8YuIoP3lKjHg', fc.record({ state: fc.constantFrom('NEW', 'ARCHIVED'), owners, name: text }, { requiredKeys: [] })),
  m('agent', '3kLx8Qy7Pb2m', fc.record({ name: text, teams }, { requiredKeys: [] })),
  m('agent', '6NbVcX4zLkJh', fc.record({ name: text, teams }, { requiredKeys: [] })),
  // Resources the configuration does not declare: never written.
  m('target', '9XcVbN5mQwEr', fc.record({ site: text.map((name) => ({ name })), labels }, { requiredKeys: [] })),
  m('asset', '6WsXdC2rFvTg', fc.record({ state: fc.constantFrom('ACTIVE', 'HIDDEN'), owners }, { requiredKeys: [] })),
  m('agent', '2PqRsT6uVwXy', fc.record({ name: text, teams }, { requiredKeys: [] })),
)

const UNDECLARED = new Set(['9XcVbN5mQwEr', '6WsXdC2rFvTg', '2PqRsT6uVwXy'])

describe('apply converges whatever was changed on the service', () => {
  it.each([false, true])('random changes, apply, plan again: nothing left (obfuscate: %s)', async (obfuscate) => {
    const em = await emulator({ obfuscate })
    const dir = exampleConfig()
    expect((await apply(em, dir, {}, EXAMPLE_SECRETS)).code).toBe(0)
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 6 }), async (mutations) => {
        for (const [kind, id, change] of mutations) em.mutate(kind, id, change)
        const undeclaredBefore = [...UNDECLARED].map((id) => JSON.stringify([em.get('target', id), em.get('asset', id), em.get('agent', id)]))
        em.clearRequests()
        const applied = await apply(em, dir, {}, EXAMPLE_SECRETS)
        expect(applied.code, applied.out + applied.err).toBe(0)
        const written = writes(em)
        // Once each, never a resource the configuration leaves out, and no failed attempt.
        expect(new Set(written.map((r) => r.path)).size).toBe(written.length)
        expect(written.filter((r) => [...UNDECLARED].some((id) => r.path.includes(id)))).toEqual([])
        expect(written.every((r) => r.status === 200)).toBe(true)
        expect([...UNDECLARED].map((id) => JSON.stringify([em.get('target', id), em.get('asset', id), em.get('agent', id)]))).toEqual(undeclaredBefore)
        em.clearRequests()
        const again = await plan(em, dir, { detailedExitcode: true }, EXAMPLE_SECRETS)
        expect(again.code, again.out).toBe(0)
        expect(writes(em)).toEqual([])
      }),
      { numRuns: Number(process.env.SCANSYNC_PROPERTY_RUNS ?? 25) },
    )
  })
})

// A review of the twelfth round's release: the service keeps one colour per label name, so the
// asset's PUT (which re-sends its labels) put back the colour read before the apply, undoing the
// target's PATCH of the same apply; the next plan was not empty.
describe('a label colour set by one resource and re-sent by another in the same apply', () => {
  it('is the declared colour in both requests: the plan after the apply is empty, whatever the order', async () => {
    for (const parallelism of [1, 8]) {
      const em = await emulator()
      const dir = tempdir({
        'c.yaml': [
          'targets:',
          '  - id: 2DZkoZH8WMEM',
          '    labels: [{name: production, color: "#0052cc"}]',
          'assets:',
          '  - id: 4TrEwQ9aSdFg',
          '    state: HIDDEN',
          '    labels: [production]',
          '',
        ].join('\n'),
      })
      const applied = await cli(em, dir, ['apply', '--auto-approve', '--parallelism', String(parallelism)])
      expect(applied.code, applied.stdout + applied.stderr).toBe(0)
      const sent = writes(em).map((w) => JSON.stringify(w.body))
      for (const body of sent) if (body.includes('production')) expect(body).toContain('#0052cc')
      const after = await cli(em, dir, ['plan', '--detailed-exitcode'])
      expect(after.code, after.stdout).toBe(0)
    }
  })

  // A fuzzing review (fifteenth round): an asset that declares no labels (or owners) re-sent the
  // live ones in its PUT, with the colour read before the apply.
  it('is the declared colour in an asset PUT that fills its labels and owners from live: the plan after the apply is empty', async () => {
    for (const saved of [false, true]) {
      const em = await emulator()
      const dir = tempdir({
        'c.yaml': [
          'targets:',
          '  - id: 2DZkoZH8WMEM',
          '    labels: [{name: production, color: "#000000"}]',
          'assets:',
          '  - id: 4TrEwQ9aSdFg',
          '    state: HIDDEN',
          '  - id: 9fGh2Kd8LmQz',
          '    owners: [{name: security, color: "#111111"}, platform-team]',
          '',
        ].join('\n'),
      })
      const applied = saved
        ? (expect((await cli(em, dir, ['plan', '--out', 'p.json'])).code).toBe(0), await cli(em, dir, ['apply', '--plan', 'p.json', '--auto-approve', '--parallelism', '1']))
        : await cli(em, dir, ['apply', '--auto-approve', '--parallelism', '1'])
      expect(applied.code, applied.stdout + applied.stderr).toBe(0)
      const put = writes(em).find((w) => w.path.includes('4TrEwQ9aSdFg'))!
      expect((put.body as { labels: unknown }).labels, `saved: ${saved}`).toEqual([{ name: 'production', color: '#000000' }])
      expect((put.body as { owners: unknown }).owners, `saved: ${saved}`).toEqual([{ name: 'payments-team', color: '#0052cc' }, { name: 'security', color: '#111111' }])
      const after = await cli(em, dir, ['plan', '--detailed-exitcode'])
      expect(after.code, after.stdout).toBe(0)
    }
  })

  // A review of that change: with --id, the asset's PUT carried the colour an unselected target
  // declares, a change the plan never showed.
  it('with --id, an asset PUT re-sends the live colours: a colour only an unselected resource declares is not sent', async () => {
    for (const saved of [false, true]) {
      const em = await emulator()
      const dir = tempdir({ 'c.yaml': ['targets:', '  - id: 2DZkoZH8WMEM', '    labels: [{name: production, color: "#000000"}]', 'assets:', '  - id: 4TrEwQ9aSdFg', '    state: HIDDEN', ''].join('\n') })
      const applied = saved
        ? (expect((await cli(em, dir, ['plan', '--id', '4TrEwQ9aSdFg', '--out', 'p.json'])).code).toBe(0), await cli(em, dir, ['apply', '--plan', 'p.json', '--auto-approve']))
        : await cli(em, dir, ['apply', '--id', '4TrEwQ9aSdFg', '--auto-approve'])
      expect(applied.code, applied.stdout + applied.stderr).toBe(0)
      const sent = writes(em)
      expect(sent).toHaveLength(1)
      expect((sent[0]!.body as { labels: unknown }).labels, `saved: ${saved}`).toEqual([{ name: 'production', color: '#b60205' }])
    }
  })
})
