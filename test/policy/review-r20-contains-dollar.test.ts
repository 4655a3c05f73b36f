// A violation of a rule written with `contains` quotes the item the list must contain, as the
// rule writes it. The quote was put in the message with String.replace and a text, where `$$`,
// `$&` or `$'` are replacement patterns: a rule wanting a cost-tier label "$", "$$" or "$$$"
// was quoted as ["$","$","$$"], and one wanting "R$&D" as "Rvalid item(s)D".
import { describe, expect, it } from 'vitest'
import { cli, sharedEmulator, tempdir } from '../e2e/helpers.js'

const em = sharedEmulator()

const CONFIG = `targets:
  - id: 2DZkoZH8WMEM
    labels: [production]
policies:
  - name: cost-tier
    kind: target
    require:
      properties:
        labels: {contains: {properties: {name: {enum: ["$", "$$", "$$$", "R$&D", "a$'b"]}}, required: [name]}}
`

describe("a violation of a rule written with `contains` quotes the rule's text as it is", () => {
  it('with dollars in it', async () => {
    const { code, stdout } = await cli(em(), tempdir({ 'a.yaml': CONFIG }), ['plan', '--format', 'json'])
    expect(code).toBe(1)
    const [violation] = (JSON.parse(stdout) as { violations: Array<{ message: string }> }).violations
    expect(violation!.message).toBe(`cost-tier (labels: must contain at least 1 item(s) matching {"properties":{"name":{"enum":["$","$$","$$$","R$&D","a$'b"]}},"required":["name"]})`)
  })
})
