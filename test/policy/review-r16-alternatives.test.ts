// A rule that offers alternatives (anyOf, or oneOf that none matches) says each of them when a
// resource meets none: naming only the first made the reviewer fix a field the rule did not require.
import { describe, expect, it } from 'vitest'
import { compilePolicies, type DeclaredPolicy } from '../../src/config/policies.js'
import { evaluatePolicies } from '../../src/plan/policies.js'

const rule = (name: string, require: unknown): DeclaredPolicy => ({
  name, description: name, kind: 'target', level: 'error', require, path: 'policies[0]', locate: () => ({ file: 'rules.yaml', line: 1, column: 5 }),
})

const messagesOf = async (require: unknown, shape: Record<string, unknown>) => {
  const { rules, diagnostics } = await compilePolicies([rule('r', require)])
  expect(diagnostics).toEqual([])
  return evaluatePolicies(rules, [{ kind: 'target', id: 'T1', shape: { id: 'T1', ...shape } }]).map((v) => v.message)
}

const STAGING_OK = { required: ['labels'], properties: { labels: { contains: { required: ['name'], properties: { name: { const: 'staging-ok' } } } } } }

describe('a rule with alternatives, none met', () => {
  it('anyOf: each alternative, in order (a contains among them said as a whole, not about one item)', async () => {
    expect(await messagesOf({ anyOf: [{ required: ['blackout_period'] }, STAGING_OK] }, { labels: [{ name: 'staging' }] })).toEqual([
      `r (one of: the target: must have required property 'blackout_period'; or labels: must contain at least 1 item(s) matching {"required":["name"],"properties":{"name":{"const":"staging-ok"}}})`,
    ])
  })

  it('oneOf that none matches, nested alternatives, and alternatives under then', async () => {
    expect(await messagesOf({ properties: { labels: { oneOf: [{ minItems: 3 }, { maxItems: 0 }] } } }, { labels: [{ name: 'a' }] })).toEqual([
      'r (one of: labels: must NOT have fewer than 3 items; or labels: must NOT have more than 0 items)',
    ])
    expect(await messagesOf({ anyOf: [{ anyOf: [{ required: ['a1'] }, { required: ['b1'] }] }, { required: ['c1'] }] }, {})).toEqual([
      `r (one of: the target: must have required property 'a1'; or the target: must have required property 'b1'; or the target: must have required property 'c1')`,
    ])
    expect(await messagesOf({ if: { required: ['type'] }, then: { anyOf: [{ required: ['api_scan_settings'] }, { properties: { type: { const: 'single' } } }] } }, { type: 'api' })).toEqual([
      `r (one of: the target: must have required property 'api_scan_settings'; or type: must be equal to constant "single")`,
    ])
  })

  it('a oneOf that more than one alternative matches, and a rule without alternatives, say what they said', async () => {
    expect(await messagesOf({ properties: { labels: { oneOf: [{ minItems: 1 }, { maxItems: 3 }] } } }, { labels: [{ name: 'a' }] })).toEqual(['r (labels: must match exactly one schema in oneOf)'])
    expect(await messagesOf({ required: ['blackout_period'] }, {})).toEqual([`r (the target: must have required property 'blackout_period')`])
  })
})

describe('a rule about the names of an object\'s members (propertyNames)', () => {
  it('says that a member\'s name broke it, and which, not that the object\'s value must be one of the names', async () => {
    expect(await messagesOf({ properties: { blackout_period: { propertyNames: { enum: ['begin', 'cease', 'enabled'] } } } }, { blackout_period: { begin: '08:00', weekdays: [1] } })).toEqual([
      'r (blackout_period: the member name "weekdays" must be equal to one of the allowed values "begin", "cease", "enabled")',
    ])
    expect(await messagesOf({ properties: { site: { propertyNames: { pattern: '^[a-z]+$' } } } }, { site: { name: 'S', has_otp: false } })).toEqual([
      'r (site: the member name "has_otp" must match pattern "^[a-z]+$")',
    ])
  })
})

describe('alternatives written as references to definitions', () => {
  it('each alternative is named, whether Ajv inlines the definition or calls it (errors then placed in the definition)', async () => {
    const definitions = {
      blackout: { required: ['blackout_period'] },
      ok: { required: ['name'], properties: { name: { const: 'staging-ok' } } },
      staging: { required: ['labels'], properties: { labels: { contains: { $ref: '#/definitions/ok' } } } },
    }
    const require = { definitions, anyOf: [{ $ref: '#/definitions/blackout' }, { $ref: '#/definitions/staging' }] }
    expect(await messagesOf(require, { labels: [{ name: 'staging' }] })).toEqual([
      `r (one of: the target: must have required property 'blackout_period'; or labels: must contain at least 1 item(s) matching {"required":["name"],"properties":{"name":{"const":"staging-ok"}}})`,
    ])
    expect(await messagesOf(require, {})).toEqual([
      `r (one of: the target: must have required property 'blackout_period'; or the target: must have required property 'labels')`,
    ])
    expect(await messagesOf({ definitions, oneOf: [{ anyOf: [{ required: ['a1'] }, { $ref: '#/definitions/blackout' }] }, { required: ['c1'] }] }, {})).toEqual([
      `r (one of: the target: must have required property 'a1'; or the target: must have required property 'blackout_period'; or the target: must have required property 'c1')`,
    ])
  })
})
