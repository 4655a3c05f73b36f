// A rule that Ajv cannot compile is reported where the fault is written, in words a reviewer
// understands: an invalid regular expression at its pattern, a reference that names nothing at
// its `$ref` (not at the rule's `require:` key).
import { afterAll, describe, expect, it } from 'vitest'
import { columnOf, lineOf, load, removeTestdirs } from '../config/helpers.js'

afterAll(removeTestdirs)

const diagnosticsOf = async (text: string) => (await load({ 'rules.yaml': text })).diagnostics.map((d) => `${d.line}:${d.column}: ${d.message}`)

describe('a rule Ajv cannot compile, placed', () => {
  it('an invalid pattern: at the pattern, saying which and why', async () => {
    const text = `policies:
  - name: names
    kind: target
    when: {required: [site]}
    require:
      properties:
        site:
          properties:
            name: {pattern: "^(prod"}
  - name: keys
    kind: target
    require: {patternProperties: {"[": {type: string}}}
`
    expect(await diagnosticsOf(text)).toEqual([
      `${lineOf(text, '^(prod')}:${columnOf(text, '"^(prod"')}: policy names: require.properties.site.properties.name.pattern: "^(prod" is not a valid regular expression (Unterminated group)`,
      `${lineOf(text, 'patternProperties')}:${columnOf(text, '"["')}: policy keys: require.patternProperties: "[" is not a valid regular expression (Unterminated character class)`,
    ])
  })
})

describe('a reference that names nothing, placed', () => {
  it('at its $ref, saying what it names', async () => {
    const text = `policies:
  - name: window
    kind: target
    require:
      properties:
        blackout_period:
          allOf:
            - $ref: "#/definitions/windw"
      definitions:
        window: {required: [begin]}
  - name: remote
    kind: asset
    when: {$ref: "https://example.com/rules/asset.json"}
    require: {required: [state]}
`
    expect(await diagnosticsOf(text)).toEqual([
      `${lineOf(text, '$ref: "#/definitions/windw"')}:${columnOf(text, '"#/definitions/windw"')}: policy window: require.properties.blackout_period.allOf[0].$ref: "#/definitions/windw" names nothing; a $ref names a place in the rule itself (#/definitions/NAME), and no other document is read`,
      `${lineOf(text, 'example.com')}:${columnOf(text, '"https://example.com')}: policy remote: when.$ref: "https://example.com/rules/asset.json" names nothing; a $ref names a place in the rule itself (#/definitions/NAME), and no other document is read`,
    ])
  })
})

describe("a keyword Ajv's strict mode ignores, placed", () => {
  it('at that keyword (the one the complaint is about, when the rule writes it twice)', async () => {
    const text = `policies:
  - name: enabled-window
    kind: target
    require:
      properties:
        labels:
          if: {minItems: 1}
          then: {maxItems: 9}
        blackout_period:
          if: {properties: {enabled: {const: true}}}
  - name: stray-then
    kind: target
    require:
      properties:
        labels: {then: {minItems: 1}}
  - name: items
    kind: target
    require:
      properties:
        labels: {additionalItems: false}
`
    expect(await diagnosticsOf(text)).toEqual([
      `${lineOf(text, 'if: {properties')}:11: policy enabled-window: require.properties.blackout_period: "if" without "then" and "else" is ignored`,
      `${lineOf(text, 'labels: {then')}:18: policy stray-then: require.properties.labels: "then" without "if" is ignored`,
      `${lineOf(text, 'additionalItems')}:18: policy items: require.properties.labels: "additionalItems" is ignored when "items" is not an array of schemas`,
    ])
  })
})

describe('a reference that is not a well-formed URI, placed', () => {
  it('at its $ref, with what is wrong with it', async () => {
    const text = `policies:
  - name: half
    kind: target
    require:
      definitions: {"50%": {required: [labels]}, a: {required: [site]}}
      allOf:
        - $ref: "#/definitions/a"
        - $ref: "#/definitions/50%"
  - name: host
    kind: target
    require: {$ref: "http://[::1"}
`
    const diagnostics = await diagnosticsOf(text)
    expect(diagnostics).toHaveLength(2)
    expect(diagnostics[0]).toBe(`${lineOf(text, '- $ref: "#/definitions/50%"')}:${columnOf(text, '"#/definitions/50%"')}: policy half: require.allOf[1].$ref: "#/definitions/50%" is not a well-formed reference (URI contains malformed percent-encoding.; a % in a name is written %25)`)
    expect(diagnostics[1]).toMatch(new RegExp(`^${lineOf(text, '::1')}:${columnOf(text, '"http://[::1"')}: policy host: require\\.\\$ref: "http://\\[::1" is not a well-formed reference \\(`))
  })
})
