// A rule's allowed values are named in each violation; a rule listing thousands of them (the ids
// of the known targets) named every one, in each violation: a line of hundreds of kilobytes on
// stderr and in each annotation, for every resource that broke it.
import { describe, expect, it } from 'vitest'
import { compilePolicies, type DeclaredPolicy } from '../../src/config/policies.js'
import { evaluatePolicies } from '../../src/plan/policies.js'

const rule = (require: unknown): DeclaredPolicy => ({
  name: 'r', description: 'Known targets only', kind: 'target', level: 'error', require, path: 'policies[0]', locate: () => ({ file: 'rules.yaml', line: 1, column: 5 }),
})

const messageOf = async (require: unknown, shape: Record<string, unknown>) => {
  const { rules, diagnostics } = await compilePolicies([rule(require)])
  expect(diagnostics).toEqual([])
  return evaluatePolicies(rules, [{ kind: 'target', id: 'T1', shape: { id: 'T1', ...shape } }]).map((v) => v.message)
}

describe('the allowed values a violation names', () => {
  it('a long enum: the first ten, and how many there are', async () => {
    const ids = Array.from({ length: 500 }, (_, i) => `id${String(i).padStart(5, '0')}`)
    const [message] = await messageOf({ properties: { id: { enum: ids } } }, {})
    expect(message).toBe(`Known targets only (id: must be equal to one of the allowed values ${ids.slice(0, 10).map((id) => JSON.stringify(id)).join(', ')}, … (500 allowed values))`)
  })

  it('a short enum and a short constant: all of them, as before', async () => {
    expect(await messageOf({ properties: { report_type: { enum: ['pci', 'pci4'] } } }, { report_type: 'default' })).toEqual([
      'Known targets only (report_type: must be equal to one of the allowed values "pci", "pci4")',
    ])
    expect(await messageOf({ properties: { report_type: { const: 'pci4' } } }, { report_type: 'default' })).toEqual(['Known targets only (report_type: must be equal to constant "pci4")'])
  })

  it('a long constant: its start, cut at 200 characters', async () => {
    const long = 'x'.repeat(5_000)
    const [message] = await messageOf({ properties: { report_type: { const: long } } }, { report_type: 'default' })
    expect(message).toBe(`Known targets only (report_type: must be equal to constant ${JSON.stringify(long).slice(0, 200)}…)`)
  })
})
