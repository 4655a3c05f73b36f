// The policy engine without the network: the after-apply shape a rule sees, and the words and
// places of a violation (contract and design.md, "Policies").
import { afterEach, describe, expect, it } from 'vitest'
import { compilePolicies, type DeclaredPolicy } from '../../src/config/policies.js'
import { afterApply } from '../../src/plan/after-apply.js'
import { evaluatePolicies, hasErrors, PolicyChecker, RULE_TIME_LIMITS_MS } from '../../src/plan/policies.js'
import { KINDS } from '../../src/resources/index.js'
import { readsOf } from '../../src/plan/policy-reads.js'

const at = (line: number) => ({ file: 'rules.yaml', line, column: 5 })
const rule = (fields: Partial<DeclaredPolicy> & Pick<DeclaredPolicy, 'name' | 'kind' | 'require'>, line = 1): DeclaredPolicy => ({
  level: 'error',
  path: 'policies[0]',
  locate: () => at(line),
  ...fields,
})

describe('the after-apply shape', () => {
  const live = KINDS.target.project({
    id: 'T1',
    site: { name: 'Shop', url: 'https://shop.example.com/', desc: null, api_scan_settings: { api_login_method: 'headers_or_cookies' } },
    labels: [{ name: 'production', color: '#d93f0b' }, { name: 'old', color: 'red' }],
    blackout_period: null,
    report_type: 'default',
    type: 'api',
  })

  it('live fields the YAML does not declare, declared fields laid over them; nulls left out; the id', () => {
    const shape = afterApply(KINDS.target, 'T1', { report_type: 'pci4', site: { name: 'Shop (prod)' }, labels: [{ name: 'production' }, { name: 'pci' }] }, live)
    expect(shape).toEqual({
      id: 'T1',
      site: { name: 'Shop (prod)', url: 'https://shop.example.com/' },
      // api_scan_settings at the top level, as the YAML writes it, wherever the service kept it.
      api_scan_settings: { api_login_method: 'headers_or_cookies' },
      // Keyed by name: a declared label keeps the live colour; the list is the declared one.
      labels: [{ name: 'production', color: '#d93f0b' }, { name: 'pci' }],
      report_type: 'pci4',
      type: 'api',
    })
    expect(shape).not.toHaveProperty('blackout_period')
  })

  // A rule written against the YAML's forms must not fail on a form the YAML never wrote (a review of the twelfth round).
  it('live values in the form the YAML writes them: times HH:MM, empty texts and lists not set, a web target\'s api_scan_settings left out', () => {
    const raw = {
      id: 'T2',
      type: 'single',
      risk: 'high',
      site: { name: 'Shop', url: 'https://shop.example.com/', desc: '', whitelist: [], has_otp: false, otp_type: 'totp', headers: [{ name: 'X-A', value: 'a', description: '' }] },
      api_scan_settings: { api_login_method: 'headers_or_cookies', api_schema_url: '' },
      labels: [],
      blackout_period: { begin: '08:00:00', cease: '18:30:00', weekdays: [1, 2], enabled: true, timezone: '' },
    }
    const live = KINDS.target.project(raw)
    const shape = afterApply(KINDS.target, 'T2', {}, live)
    // A field the YAML cannot write (read-only) is there as the service answers it.
    expect(shape).toMatchObject({ id: 'T2', type: 'single', risk: 'high' })
    expect(shape.blackout_period).toEqual({ begin: '08:00', cease: '18:30', weekdays: [1, 2], enabled: true })
    expect(shape.site).toEqual({ name: 'Shop', url: 'https://shop.example.com/', has_otp: false, headers: [{ name: 'X-A', value: 'a' }] })
    expect(shape).not.toHaveProperty('labels')
    expect(shape).not.toHaveProperty('api_scan_settings')
    // The live answer is not changed.
    expect((live.blackout_period as Record<string, unknown>).begin).toBe('08:00:00')

    // Switches read as they will be after the apply: declared an API target, its settings count.
    const api = afterApply(KINDS.target, 'T2', { type: 'api', site: { has_otp: true } }, live)
    expect(api.api_scan_settings).toEqual({ api_login_method: 'headers_or_cookies' })
    expect((api.site as Record<string, unknown>).otp_type).toBe('totp')

    // The YAML clearing a value (an empty text, an empty list) leaves it not set, as the service then answers it.
    const cleared = afterApply(KINDS.target, 'T2', { site: { name: '' }, blackout_period: { begin: '09:00', cease: '17:00', weekdays: [] }, labels: [] }, KINDS.target.project({ ...raw, labels: [{ name: 'x' }] }))
    expect(cleared.site).not.toHaveProperty('name')
    expect(cleared.blackout_period).toEqual({ begin: '09:00', cease: '17:00', enabled: true })
    expect(cleared).not.toHaveProperty('labels')
  })

  // A review of the twelfth round's release: a plan with nothing to send failed a rule on the declared form of an unchanged value.
  it('a declared value equal to the live one through the kind\'s normalizer is the live one (the plan sends nothing)', () => {
    const live = KINDS.target.project({ id: 'T4', site: { name: 'S', url: 'https://shop.example.com/' }, labels: [{ name: 'prod', color: '#d93f0b' }], blackout_period: { begin: '08:00:00', cease: '18:00:00', weekdays: [1] } })
    const declared = { site: { url: 'HTTPS://SHOP.example.com:443' }, labels: [{ name: 'prod', color: '#D93F0B' }], blackout_period: { begin: '08:00', cease: '19:00', weekdays: [1] } }
    for (const whole of [true, false]) {
      const reads = whole || readsOf({ properties: { site: { properties: { url: true } }, labels: true, blackout_period: { properties: { begin: true, cease: true } } } })
      const shape = afterApply(KINDS.target, 'T4', declared, live, reads)
      expect((shape.site as Record<string, unknown>).url).toBe('https://shop.example.com/')
      expect(shape.labels).toEqual([{ name: 'prod', color: '#d93f0b' }])
      // A changed value is the declared one.
      expect(shape.blackout_period).toMatchObject({ begin: '08:00', cease: '19:00' })
    }
    // A resource the plan found unchanged takes the live value without normalizing again; one from a variable stays (sensitive).
    const unchanged = afterApply(KINDS.target, 'T4', { site: { url: 'HTTPS://SHOP.example.com:443', name: '(sensitive)' } }, live, true, { unchanged: true })
    expect(unchanged.site).toEqual({ url: 'https://shop.example.com/', name: '(sensitive)' })
  })

  it('rules written against the YAML\'s forms pass on live values in other forms, and fail where the YAML would', async () => {
    const { rules, diagnostics } = await compilePolicies([
      rule({ name: 'office-hours', kind: 'target', require: { properties: { blackout_period: { properties: { begin: { const: '08:00' } } } } } }),
      rule({ name: 'described', kind: 'target', require: { properties: { site: { required: ['desc'] } } } }),
      rule({ name: 'labelled', kind: 'target', require: { required: ['labels'] } }),
      rule({ name: 'api-login', kind: 'target', require: { not: { required: ['api_scan_settings'] } } }),
    ])
    expect(diagnostics).toEqual([])
    const live = KINDS.target.project({ id: 'T3', type: 'single', site: { name: 'S', url: 'https://s.example.com/', desc: '' }, labels: null, api_scan_settings: { api_login_method: 'api_login' }, blackout_period: { begin: '08:00:00', cease: '18:00:00', weekdays: [1] } })
    for (const whole of [true, false]) {
      const checker = new PolicyChecker(rules)
      const shape = afterApply(KINDS.target, 'T3', {}, live, whole || checker.reads('target'))
      checker.check('target', 'T3', shape)
      expect(checker.violations().map((v) => v.policy)).toEqual(['described', 'labelled'])
    }
  })

  it('a declared null removes the field; the live resource is not changed; __proto__ stays an own key', () => {
    const before = JSON.stringify(live)
    const declared = JSON.parse('{"report_type": null, "site": {"__proto__": {"polluted": true}}}')
    const shape = afterApply(KINDS.target, 'T1', declared, live)
    expect(shape).not.toHaveProperty('report_type')
    expect(Object.hasOwn(shape.site as object, '__proto__')).toBe(true)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(JSON.stringify(live)).toBe(before)
  })

  it('a declared label is matched with the live one of its name alike in a short list (searched) and a long one (mapped): the last of a repeated name, members in order, __proto__ a member', () => {
    const declared = JSON.parse('{"labels": [{"name": "b", "__proto__": {"x": 1}}, {"name": "a", "color": "blue"}, {"name": "new"}, "text"]}')
    const expected = [{ name: 'b', color: 'b2' }, { name: 'a', color: 'blue' }, { name: 'new' }, 'text']
    for (const filler of [0, 30]) {
      const labels = [{ name: 'a', color: 'a1' }, { name: 'b', color: 'b1' }, { name: 'b', color: 'b2', note: null }, ...Array.from({ length: filler }, (_, i) => ({ name: `other-${i}`, color: 'x' }))]
      const shape = afterApply(KINDS.target, 'T1', declared, KINDS.target.project({ id: 'T1', site: { name: 'S', url: 'https://s.example.com/' }, labels }))
      const [b, a] = shape.labels as Array<Record<string, unknown>>
      expect(Object.keys(b!), `${labels.length} live labels`).toEqual(['name', 'color', '__proto__'])
      expect(Object.hasOwn(b!, '__proto__') && Object.getPrototypeOf(b) === Object.prototype).toBe(true)
      delete b!['__proto__']
      expect(shape.labels, `${labels.length} live labels`).toEqual(expected)
      expect(Object.keys(a!)).toEqual(['name', 'color'])
    }
  })
})

describe('violations', () => {
  it('at the resource\'s line, the description first, then what Ajv found and where; never the value itself', async () => {
    const { rules, diagnostics } = await compilePolicies([
      rule({ name: 'pci', description: 'PCI targets report in a PCI format', kind: 'target', require: { properties: { report_type: { enum: ['pci4'] } } } }, 3),
      rule({ name: 'secret-shape', kind: 'target', require: { properties: { site: { properties: { desc: { pattern: '^$' } } } } } }, 9),
      rule({ name: 'labelled', kind: 'target', level: 'warning', require: { required: ['labels'] } }, 12),
      rule({ name: 'agents-only', kind: 'agent', require: false }, 15),
    ])
    expect(diagnostics).toEqual([])
    const declared = { source: { file: 'a.yaml', line: 2, column: 5 } }
    const violations = evaluatePolicies(rules, [
      { kind: 'target', id: 'T1', shape: { id: 'T1', report_type: 'default', site: { desc: 'hunter2-Secret' } }, declared },
      { kind: 'target', id: 'T0', shape: { id: 'T0', report_type: 'pci4', labels: [{ name: 'x' }] } },
    ])
    expect(violations.map((v) => [v.policy, v.level, v.id, v.message, v.where && `${v.where.file}:${v.where.line}`])).toEqual([
      ['labelled', 'warning', 'T1', "labelled (the target: must have required property 'labels')", 'a.yaml:2'],
      ['pci', 'error', 'T1', 'PCI targets report in a PCI format (report_type: must be equal to one of the allowed values "pci4")', 'a.yaml:2'],
      ['secret-shape', 'error', 'T1', 'secret-shape (site.desc: must match pattern "^$")', 'a.yaml:2'],
    ])
    expect(JSON.stringify(violations)).not.toContain('hunter2')
    expect(hasErrors(violations)).toBe(true)
    expect(hasErrors(violations.filter((v) => v.level === 'warning'))).toBe(false)
  })

  it('a member additionalProperties refuses is named (its name: never a value)', async () => {
    const { rules } = await compilePolicies([rule({ name: 'closed', description: 'known keys only', kind: 'target', require: { properties: { blackout_period: { additionalProperties: false, properties: { begin: {}, cease: {} } } } } })])
    const [violation] = evaluatePolicies(rules, [{ kind: 'target', id: 'T1', shape: { id: 'T1', blackout_period: { begin: '08:00', cease: '18:00', timezone: 'UTC' } } }])
    expect(violation.message).toBe('known keys only (blackout_period: must NOT have additional properties ("timezone"))')
  })

  it('an undeclared resource (audit) has no place of its own: it is reported at its rule', async () => {
    const { rules } = await compilePolicies([rule({ name: 'r', kind: 'asset', require: { required: ['owners'] } }, 7)])
    const [violation] = evaluatePolicies(rules, [{ kind: 'asset', id: 'A1', shape: { id: 'A1' } }])
    expect(violation.where).toBeUndefined()
    expect(violation.rule).toEqual(at(7))
  })
})

// A review of this round's time limits: several slow rules together were an error naming no rule.
describe('rules checked within time limits', () => {
  const spin = (ms: number) => {
    const until = Date.now() + ms
    while (Date.now() < until);
  }
  /** A compiled rule whose `require` takes `ms` and then answers `passes`. */
  const slowRule = (name: string, ms: number, passes: boolean) => {
    const require = Object.assign(() => (spin(ms), passes), { schema: {}, errors: passes ? null : [{ instancePath: '/site', message: 'is slow', keyword: 'x', params: {} }] })
    return { name, description: name, kind: 'target' as const, level: 'error' as const, source: at(1), require } as unknown as Parameters<typeof evaluatePolicies>[0][number]
  }
  const limits = { ...RULE_TIME_LIMITS_MS }
  afterEach(() => Object.assign(RULE_TIME_LIMITS_MS, limits))

  it('two rules slow together but each within the limit alone: checked, no error', () => {
    Object.assign(RULE_TIME_LIMITS_MS, { batch: 150, resource: 150, rule: 1000 })
    const found = evaluatePolicies([slowRule('a', 100, true), slowRule('b', 100, false)], [{ kind: 'target', id: 'T1', shape: { id: 'T1' } }])
    expect(found.map((v) => [v.policy, v.id])).toEqual([['b', 'T1']])
  })

  it('a rule over the limit alone is an error naming it and the resource', () => {
    Object.assign(RULE_TIME_LIMITS_MS, { batch: 150, resource: 150, rule: 150 })
    expect(() => evaluatePolicies([slowRule('fast', 0, true), slowRule('slow', 1000, true)], [{ kind: 'target', id: 'T1', shape: { id: 'T1' } }])).toThrow(
      'rules.yaml:1:5: policy slow: checking target T1 took more than 0.15 s (a pattern that backtracks on its values?), so the rule cannot be checked',
    )
  })
})
