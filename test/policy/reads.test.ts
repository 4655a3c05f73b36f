// The after-apply shape built for what the rules read: the rules find in it exactly what they
// find in the whole shape (the speed of plans with rules, issue 15's benchmark row).
import { describe, expect, it } from 'vitest'
import { compilePolicies, type DeclaredPolicy } from '../../src/config/policies.js'
import { afterApply, evaluatePolicies, PolicyChecker } from '../../src/plan/policies.js'
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
const declared = [
  {},
  { report_type: 'pci4', site: { name: 'Shop (prod)' }, labels: [{ name: 'production' }, { name: 'pci' }] },
  { blackout_period: null, site: { url: 'https://shop.example.com/', desc: 'x' }, scanning_agent: { id: 'A1' } },
  { blackout_period: { begin: '20:00', timezone: 'UTC' }, labels: [] },
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
      rule('site-closed', { properties: { site: { type: 'object', additionalProperties: { type: ['string', 'array', 'object', 'boolean'] } } } }),
    ])
    expect(diagnostics).toEqual([])
    const checker = new PolicyChecker(rules)
    expect(checker.reads('target')).not.toBe(true)
    let found = 0
    for (const [i, fields] of declared.entries()) {
      const whole = afterApply(KINDS.target, `T${i}`, fields, live)
      const read = afterApply(KINDS.target, `T${i}`, fields, live, checker.reads('target'))
      // No rule reads fail_fast: it is not built.
      expect(whole).toHaveProperty('fail_fast')
      expect(read).not.toHaveProperty('fail_fast')
      const source = { source: { file: 'a.yaml', line: i + 1, column: 1 } }
      const expected = evaluatePolicies(rules, [{ kind: 'target', id: `T${i}`, shape: whole, declared: source }])
      expect(evaluatePolicies(rules, [{ kind: 'target', id: `T${i}`, shape: read, declared: source }])).toEqual(expected)
      found += expected.length
    }
    expect(found).toBeGreaterThan(4)
  })
})
