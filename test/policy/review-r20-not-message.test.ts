// A rule written with `not` ("no lightning scans in production", "not the default profile") that a
// resource broke was reported with Ajv's "must NOT be valid" (`no-lightning (the target: must NOT
// be valid)`): a reviewer could not tell from the violation what the resource must stop doing.
// The violation now says what the `not` forbids: a value, one of values, or the schema under it.
import { describe, expect, it } from 'vitest'
import { compilePolicies, type DeclaredPolicy } from '../../src/config/policies.js'
import { evaluatePolicies } from '../../src/plan/policies.js'
import { cli, sharedEmulator, tempdir } from '../e2e/helpers.js'

const em = sharedEmulator()

// The example seed's target 2DZkoZH8WMEM scans with the `normal` profile.
const CONFIG = `targets:
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

describe('a violation of a rule written with `not`', () => {
  it.each(['text', 'json'] as const)('says what the `not` forbids, in every format (%s)', async (format) => {
    const { code, stdout, stderr } = await cli(em(), tempdir({ 'a.yaml': CONFIG }), ['plan', '--format', format])
    expect(code).toBe(1)
    const messages =
      format === 'json'
        ? (JSON.parse(stdout) as { violations: Array<{ policy: string; message: string }> }).violations.map((v) => `${v.policy}: ${v.message}`)
        : stderr.split('\n').filter((line) => line.includes(': policy ')).map((line) => line.replace(/^a\.yaml:2:5: policy (\S+): target 2DZkoZH8WMEM: /, '$1: '))
    expect(messages.sort()).toEqual([
      'no-normal-in-prod: no-normal-in-prod (the target: must not match {"properties":{"scan_profile":{"const":"normal"}}})',
      'not-the-default: not-the-default (scan_profile: must not be "normal")',
      'not-these-profiles: not-these-profiles (scan_profile: must not be one of "normal", "lightning")',
    ])
    expect(`${stdout}${stderr}`).not.toContain('must NOT be valid')
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
