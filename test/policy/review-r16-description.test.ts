// A description written as a YAML block scalar (`description: >` then lines, the usual way to
// write a long text) ends in a line break: each violation showed it as `\u000a` in its one line on
// stderr, and broke the line of the annotation and the JSON message before what Ajv found.
import { afterAll, describe, expect, it } from 'vitest'
import { load, removeTestdirs } from '../config/helpers.js'
import { evaluatePolicies } from '../../src/plan/policies.js'
import { violationLine } from '../../src/render/violations.js'

afterAll(removeTestdirs)

const rulesOf = async (description: string) => {
  const text = `policies:\n  - name: prod-blackout\n    description: ${description}\n    kind: target\n    require: {required: [blackout_period]}\n`
  const loaded = await load({ 'rules.yaml': text })
  expect(loaded.diagnostics).toEqual([])
  return loaded.policies
}

describe("a rule's description written over several lines", () => {
  it('folded (>) or literal (|): one line, its words as written, then what Ajv found', async () => {
    for (const description of ['>\n      Production targets pause scans in office hours,\n      so that customers never meet a scan\n', '|\n      Production targets pause scans in office hours,\n      so that customers never meet a scan\n']) {
      const [violation] = evaluatePolicies(await rulesOf(description), [{ kind: 'target', id: 'T1', shape: { id: 'T1' }, declared: { source: { file: 'a.yaml', line: 2, column: 5 } } }])
      expect(violation!.message).toBe(`Production targets pause scans in office hours, so that customers never meet a scan (the target: must have required property 'blackout_period')`)
      expect(violationLine(violation!)).not.toContain('\\u000a')
    }
  })

  it('a description of spaces only: the rule is named by its name, as when it has none', async () => {
    const [violation] = evaluatePolicies(await rulesOf('"  "'), [{ kind: 'target', id: 'T1', shape: { id: 'T1' } }])
    expect(violation!.message).toBe(`prod-blackout (the target: must have required property 'blackout_period')`)
  })
})
