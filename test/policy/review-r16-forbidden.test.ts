// A rule that forbids what its `when` selects (`require: false`: "no production target scans
// with the lightning profile"), or a member (`properties: {fail_fast: false}`), said Ajv's
// "boolean schema is false", which tells a reviewer nothing.
import { describe, expect, it } from 'vitest'
import { compilePolicies, type DeclaredPolicy } from '../../src/config/policies.js'
import { evaluatePolicies } from '../../src/plan/policies.js'

const rule = (require: unknown, when?: unknown): DeclaredPolicy => ({
  name: 'r', description: 'No lightning scans in production', kind: 'target', level: 'error', require, when, path: 'policies[0]', locate: () => ({ file: 'rules.yaml', line: 1, column: 5 }),
})

const messagesOf = async (require: unknown, shape: Record<string, unknown>, when?: unknown) => {
  const { rules, diagnostics } = await compilePolicies([rule(require, when)])
  expect(diagnostics).toEqual([])
  return evaluatePolicies(rules, [{ kind: 'target', id: 'T1', shape: { id: 'T1', ...shape } }]).map((v) => v.message)
}

describe('a rule that allows nothing, or a member that is not allowed', () => {
  it('says that what the rule selects is not allowed', async () => {
    expect(await messagesOf(false, { scan_profile: 'lightning' }, { required: ['scan_profile'], properties: { scan_profile: { const: 'lightning' } } })).toEqual([
      'No lightning scans in production (the target: is not allowed: the rule allows none it applies to)',
    ])
    expect(await messagesOf({ properties: { fail_fast: false } }, { fail_fast: true })).toEqual(['No lightning scans in production (fail_fast: is not allowed here)'])
  })
})

describe('a false that forbids only some of what the rule applies to (else, an alternative)', () => {
  it('does not say that the rule allows none', async () => {
    expect(await messagesOf({ if: { required: ['labels'] }, then: { required: ['report_type'] }, else: false }, { scan_profile: 'lightning' })).toEqual([
      'No lightning scans in production (the target: is not allowed)',
    ])
    expect(await messagesOf({ anyOf: [{ required: ['blackout_period'] }, false] }, {})).toEqual([
      `No lightning scans in production (one of: the target: must have required property 'blackout_period'; or the target: is not allowed)`,
    ])
  })
})
