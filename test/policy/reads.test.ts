// The after-apply shape built for what the rules read: the rules find in it exactly what they
// find in the whole shape (the speed of plans with rules, issue 15's benchmark row).
import { describe, expect, it } from 'vitest'
import { compilePolicies, type DeclaredPolicy } from '../../src/config/policies.js'
import { afterApply } from '../../src/plan/after-apply.js'
import { evaluatePolicies, PolicyChecker } from '../../src/plan/policies.js'
import { readsOf } from '../../src/plan/policy-reads.js'
import { KINDS } from '../../src/resources/index.js'

const rule = (name: string, require: unknown, when?: unknown): DeclaredPolicy => ({
  name, kind: 'target', level: 'error', require, when, path: 'policies[0]', locate: () => ({ file: 'rules.yaml', line: 1, column: 1 }),
})

const live = KINDS.target.project({
  id: 'T1',
  site: { name: 'Shop', url: 'http://shop.example.com/', desc: null, headers: [{ name: 'X', value: 'y' }], api_scan_settings: { api_login_method: 'api_login', api_schema_url: null } },
  labels: [{ name: 'production', color: '#d93f0b' }, { name: 'old', color: null }],
  blackout_period: { begin: '22:00', cease: null, weekdays: [1], enabled: false, timezone: null },
  report_type: 'default',
  scanning_agent: null,
  type: 'api',
  fail_fast: true,
})
// The same target as the service may answer it in other forms: a web target, times with seconds, empty texts and lists.
const webLive = KINDS.target.project({
  id: 'T2',
  site: { name: 'Shop', url: 'https://shop.example.com/', desc: '', has_otp: false, otp_type: 'totp', headers: [], api_scan_settings: { api_login_method: 'api_login', api_schema_url: '' } },
  labels: [],
  blackout_period: { begin: '08:00:00', cease: '18:00:00', weekdays: [], enabled: true, timezone: '' },
  report_type: '',
  type: 'single',
})
const declared = [
  {},
  { report_type: 'pci4', site: { name: 'Shop (prod)' }, labels: [{ name: 'production' }, { name: 'pci' }] },
  { blackout_period: null, site: { url: 'https://shop.example.com/', desc: 'x' }, scanning_agent: { id: 'A1' } },
  { blackout_period: { begin: '20:00', timezone: 'UTC' }, labels: [] },
  { type: 'api', site: { desc: '', has_otp: true }, report_type: '' },
]

describe('what rules read', () => {
  it('named members, with what is read of each; a keyword that lists, counts or compares members reads the whole value', () => {
    expect(readsOf({ required: ['labels'], properties: { site: { properties: { url: { pattern: '^https://' } } } } })).toEqual(new Map([['labels', new Map()], ['site', new Map([['url', new Map()]])]]))
    expect(readsOf({ anyOf: [{ required: ['a'] }, { not: { required: ['b'] } }] })).toEqual(new Map([['a', new Map()], ['b', new Map()]]))
    expect(readsOf({ properties: { site: { additionalProperties: false } } })).toEqual(new Map([['site', true]]))
    expect(readsOf({ properties: { labels: { contains: { const: 'x' } } } })).toEqual(new Map([['labels', true]]))
    for (const whole of [{ minProperties: 3 }, { $ref: '#/definitions/x' }, { const: {} }, { propertyNames: { pattern: 'a' } }, { dependencies: { a: ['b'] } }, { unknownWord: 1 }]) expect(readsOf(whole)).toBe(true)
  })

  it('rules over the shape built for what they read find what they find over the whole shape', async () => {
    const { rules, diagnostics } = await compilePolicies([
      rule('https', { properties: { site: { properties: { url: { pattern: '^https://' } } } } }),
      rule('has-blackout', { required: ['blackout_period'], properties: { blackout_period: { required: ['begin', 'cease', 'timezone'] } } }),
      rule('enabled', { properties: { blackout_period: { properties: { enabled: { const: true } } } } }),
      rule('pci', { properties: { report_type: { enum: ['pci4'] } } }, { properties: { labels: { contains: { properties: { name: { const: 'pci' } } } } } }),
      rule('api-login', { required: ['api_scan_settings'], properties: { api_scan_settings: { required: ['api_schema_url'] } } }, { properties: { type: { const: 'api' } } }),
      rule('agent', { anyOf: [{ required: ['scanning_agent'] }, { not: { properties: { site: { required: ['desc'] } } } }] }),
      rule('otp', { properties: { site: { properties: { otp_type: { const: 'sms' } } } } }),
      rule('office-hours', { properties: { blackout_period: { properties: { begin: { pattern: '^\\d\\d:\\d\\d$' }, weekdays: { minItems: 1 } } } } }),
      rule('site-closed', { properties: { site: { type: 'object', additionalProperties: { type: ['string', 'array', 'object', 'boolean'] } } } }),
    ])
    expect(diagnostics).toEqual([])
    const checker = new PolicyChecker(rules)
    expect(checker.reads('target')).not.toBe(true)
    let found = 0
    for (const [i, fields] of [...declared.entries(), ...declared.map((fields, i) => [i + declared.length, fields] as const)]) {
      const resource = i < declared.length ? live : webLive
      const whole = afterApply(KINDS.target, `T${i}`, fields, resource)
      const read = afterApply(KINDS.target, `T${i}`, fields, resource, checker.reads('target'))
      // No rule reads fail_fast or the site's name: they are not built.
      if (resource === live) expect(whole).toHaveProperty('fail_fast')
      expect(whole).toHaveProperty('site.name')
      expect(read).not.toHaveProperty('fail_fast')
      const source = { source: { file: 'a.yaml', line: i + 1, column: 1 } }
      const expected = evaluatePolicies(rules, [{ kind: 'target', id: `T${i}`, shape: whole, declared: source }])
      expect(evaluatePolicies(rules, [{ kind: 'target', id: `T${i}`, shape: read, declared: source }])).toEqual(expected)
      found += expected.length
    }
    expect(found).toBeGreaterThan(8)
  })
})
