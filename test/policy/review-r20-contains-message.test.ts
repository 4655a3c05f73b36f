// A team's rule "every target carries its business unit's label" (labels `contains` an item whose
// name is one of the units, through a definition) reported a target without one as `labels: must
// contain at least 1 valid item(s)`: valid as what, the reviewer could not tell without opening
// the rule file. The violation now says which item is wanted, a lone $ref followed to what it names.
import { describe, expect, it } from 'vitest'
import { cli, sharedEmulator, tempdir } from '../e2e/helpers.js'

const em = sharedEmulator()

const CONFIG = `targets:
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

describe('a violation of a rule written with `contains`', () => {
  it.each(['text', 'json'] as const)('says which item the list must contain (%s)', async (format) => {
    const { code, stdout, stderr } = await cli(em(), tempdir({ 'a.yaml': CONFIG }), ['plan', '--format', format])
    expect(code).toBe(1)
    const messages =
      format === 'json'
        ? (JSON.parse(stdout) as { violations: Array<{ policy: string; message: string }> }).violations.map((v) => `${v.policy}: ${v.message}`)
        : stderr.split('\n').filter((line) => line.includes(': policy ')).map((line) => line.replace(/^a\.yaml:2:5: policy (\S+): target 2DZkoZH8WMEM: /, '$1: '))
    expect(messages.sort()).toEqual([
      'owner-label: owner-label (labels: must contain at least 1 item(s) matching {"properties":{"name":{"pattern":"^owner-"}},"required":["name"]})',
      `unit-label: Every target carries its business unit's label (labels: must contain at least 1 item(s) matching {"required":["name"],"properties":{"name":{"enum":["payments","retail"]}}})`,
    ])
    expect(`${stdout}${stderr}`).not.toContain('valid item(s)')
  })
})
