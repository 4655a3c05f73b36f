// A rule's allowed values (an enum of thousands: the known owners, the allowed URLs) were checked
// against the meta-schema's "no value twice" by comparing every pair of them, in every command that
// loads the rule: 4,000 values, 8 million comparisons (validate 2.2 → 9.1 s for 20 such rules).
// Ajv's deep equality is counted here (the check runs it through the module's `default`).
import { createRequire } from 'node:module'
import { afterEach, describe, expect, it } from 'vitest'
import { compilePolicies, type DeclaredPolicy } from '../../src/config/policies.js'
import { evaluatePolicies } from '../../src/plan/policies.js'

const equalModule = createRequire(import.meta.url)('ajv/dist/runtime/equal') as { default: (a: unknown, b: unknown) => boolean }
const original = equalModule.default
let comparisons = 0
equalModule.default = (a, b) => {
  comparisons++
  return original(a, b)
}
afterEach(() => {
  comparisons = 0
})

const rule = (require: unknown): DeclaredPolicy => ({
  name: 'r', description: 'Known owners only', kind: 'target', level: 'error', require, path: 'policies[0]', locate: () => ({ file: 'rules.yaml', line: 1, column: 5 }),
})

describe('a rule with a long enum', () => {
  it('is checked against the meta-schema without comparing every pair of its values', async () => {
    const owners = Array.from({ length: 3_000 }, (_, i) => `owner-${i}`)
    const numbers = Array.from({ length: 3_000 }, (_, i) => i)
    const { rules, diagnostics } = await compilePolicies([rule({ properties: { owner: { enum: owners }, weight: { not: { enum: numbers } } } })])
    expect(diagnostics).toEqual([])
    // Pairwise: 2 × 4.5 million. One pass: none.
    expect(comparisons).toBeLessThan(3_000)
    expect(evaluatePolicies(rules, [{ kind: 'target', id: 'T1', shape: { id: 'T1', owner: 'owner-2999', weight: 3_000 } }])).toEqual([])
    expect(evaluatePolicies(rules, [{ kind: 'target', id: 'T1', shape: { id: 'T1', owner: 'nobody' } }])).toHaveLength(1)
  })

  it('still says which two values of an enum repeat, and that a list of none is no enum', async () => {
    const values = ['a', 'b', 1, 'c', 'b', 2, '1']
    const { diagnostics } = await compilePolicies([rule({ properties: { owner: { enum: values } } })])
    expect(diagnostics.map((d) => d.message)).toEqual(['policy r: require.properties.owner.enum is not a valid JSON Schema: must NOT have duplicate items (items ## 1 and 4 are identical)'])
    const empty = await compilePolicies([rule({ properties: { owner: { enum: [] } } })])
    expect(empty.diagnostics.map((d) => d.message)).toEqual(['policy r: require.properties.owner.enum is not a valid JSON Schema: must NOT have fewer than 1 items'])
    const numbers = await compilePolicies([rule({ properties: { n: { enum: [0, 1, -0] }, m: { enum: [1, '1', true, 'true', null, 'null'] } } })])
    expect(numbers.diagnostics.map((d) => d.message)).toEqual(['policy r: require.properties.n.enum is not a valid JSON Schema: must NOT have duplicate items (items ## 0 and 2 are identical)'])
  })

  it('an enum where a schema cannot stand is not the meta-schema\'s business, shortened or not', async () => {
    const { diagnostics } = await compilePolicies([rule({ properties: { owner: { const: { enum: ['a', 'a'] } }, enum: { type: 'string' } }, dependencies: { enum: ['x', 'y'] } })])
    expect(diagnostics).toEqual([])
    const wrong = await compilePolicies([rule({ dependencies: { enum: ['x', 3] } })])
    expect(wrong.diagnostics).toHaveLength(1)
  })
})
