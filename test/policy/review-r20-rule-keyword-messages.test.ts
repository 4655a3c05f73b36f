// Violations of rules written with `not` or `contains` said only Ajv's words: a `not` ("no
// lightning scans in production", "not the default profile") gave "must NOT be valid", and a
// `contains` (every target carries its business unit's label) "must contain at least 1 valid
// item(s)": a reviewer could not tell what the resource must stop doing, or which item is wanted,
// without opening the rule file. The violation now quotes what the `not` forbids (a value, one of
// values, or the schema under it) and the item the list must contain, a lone $ref followed.
import { describe, expect, it } from 'vitest'
import { compilePolicies, type DeclaredPolicy } from '../../src/config/policies.js'
import { evaluatePolicies } from '../../src/plan/policies.js'
import { cli, sharedEmulator, tempdir, type CliResult } from '../e2e/helpers.js'

const em = sharedEmulator()

// The example seed's target 2DZkoZH8WMEM scans with the `normal` profile.
const NOT_RULES = `targets:
  - id: 2DZkoZH8WMEM
    labels: [production]
policies:
  - name: no-normal-in-prod
    kind: target
    require:
      not:
        properties: {scan_profile: {const: normal}}
  - name: not-the-default
    kind: target
    require:
      properties:
        scan_profile: {not: {const: normal}}
  - name: not-these-profiles
    kind: target
    require:
      definitions:
        usual: {not: {enum: [normal, lightning]}}
      properties:
        scan_profile: {$ref: "#/definitions/usual"}
`

const CONTAINS_RULES = `targets:
  - id: 2DZkoZH8WMEM
    labels: [production]
policies:
  - name: unit-label
    description: Every target carries its business unit's label
    kind: target
    require:
      definitions:
        unit: {required: [name], properties: {name: {enum: [payments, retail]}}}
      properties:
        labels: {contains: {$ref: "#/definitions/unit"}}
  - name: owner-label
    kind: target
    require:
      properties:
        labels: {contains: {properties: {name: {pattern: "^owner-"}}, required: [name]}}
`

/** Each violation as `policy: message`, from the JSON document or from the text lines at the target's line. */
function violationMessages(format: 'text' | 'json', { stdout, stderr }: CliResult): string[] {
  const messages =
    format === 'json'
      ? (JSON.parse(stdout) as { violations: Array<{ policy: string; message: string }> }).violations.map((v) => `${v.policy}: ${v.message}`)
      : stderr.split('\n').filter((line) => line.includes(': policy ')).map((line) => line.replace(/^a\.yaml:2:5: policy (\S+): target 2DZkoZH8WMEM: /, '$1: '))
  return messages.sort()
}

describe('a violation of a rule written with `not`', () => {
  it.each(['text', 'json'] as const)('says what the `not` forbids, in every format (%s)', async (format) => {
    const run = await cli(em(), tempdir({ 'a.yaml': NOT_RULES }), ['plan', '--format', format])
    expect(run.code).toBe(1)
    expect(violationMessages(format, run)).toEqual([
      'no-normal-in-prod: no-normal-in-prod (the target: must not match {"properties":{"scan_profile":{"const":"normal"}}})',
      'not-the-default: not-the-default (scan_profile: must not be "normal")',
      'not-these-profiles: not-these-profiles (scan_profile: must not be one of "normal", "lightning")',
    ])
    expect(`${run.stdout}${run.stderr}`).not.toContain('must NOT be valid')
  })

  it('a `not` in a definition Ajv calls as a function of its own (a recursive $ref) is named too, or said plainly when ambiguous', async () => {
    const rule = (require: unknown): DeclaredPolicy => ({ name: 'r', description: 'R', kind: 'target', level: 'error', require, path: 'policies[0]', locate: () => ({ file: 'rules.yaml', line: 1, column: 5 }) })
    const messageOf = async (require: unknown, shape: Record<string, unknown>) => {
      const { rules, diagnostics } = await compilePolicies([rule(require)])
      expect(diagnostics).toEqual([])
      return evaluatePolicies(rules, [{ kind: 'target', id: 'T1', shape: { id: 'T1', ...shape } }]).map((v) => v.message)
    }
    const recursive = { definitions: { node: { properties: { site: { $ref: '#/definitions/node' } }, not: { required: ['desc'] } } }, properties: { site: { $ref: '#/definitions/node' } } }
    expect(await messageOf(recursive, { site: { desc: 'x' } })).toEqual(['R (site: must not match {"required":["desc"]})'])
    const ambiguous = { ...recursive, not: { required: ['fail_fast'] } }
    expect(await messageOf(ambiguous, { site: { desc: 'x' } })).toEqual(['R (site: must not match the schema under its "not")'])
  })
})

describe('a violation of a rule written with `contains`', () => {
  it.each(['text', 'json'] as const)('says which item the list must contain (%s)', async (format) => {
    const run = await cli(em(), tempdir({ 'a.yaml': CONTAINS_RULES }), ['plan', '--format', format])
    expect(run.code).toBe(1)
    expect(violationMessages(format, run)).toEqual([
      'owner-label: owner-label (labels: must contain at least 1 item(s) matching {"properties":{"name":{"pattern":"^owner-"}},"required":["name"]})',
      `unit-label: Every target carries its business unit's label (labels: must contain at least 1 item(s) matching {"required":["name"],"properties":{"name":{"enum":["payments","retail"]}}})`,
    ])
    expect(`${run.stdout}${run.stderr}`).not.toContain('valid item(s)')
  })
})
