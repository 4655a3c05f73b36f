// Review 3, round 16: a rule too large for Ajv to compile said it 'refers to itself without end
// ($ref)' whenever it held a $ref at all: one reference to a definition (site: {$ref:
// '#/definitions/s'}) beside thousands of alternatives, or a member named "$ref", is no recursion.
import { afterAll, describe, expect, it } from 'vitest'
import { load, removeTestdirs } from '../config/helpers.js'

afterAll(removeTestdirs)

const TOO_LARGE = 'policy many: require: the schema is too large to compile (thousands of properties or alternatives); a list of allowed values is written as one enum'
const RECURSES = 'policy many: require: the schema refers to itself without end ($ref), so no resource can be checked against it'

describe('a rule too large for Ajv to compile, with a harmless $ref in it', () => {
  it('says it is too large; a reference without end still says so', async () => {
    const alternatives = Array.from({ length: 4000 }, (_, i) => `{const: v${i}}`).join(', ')
    const rule = (extra: string) => `policies:\n  - name: many\n    kind: target\n    require: {definitions: {s: {type: object}}, properties: {report_type: {anyOf: [${alternatives}]}${extra}}}\n  - name: after\n    kind: target\n    require: {required: [site]}\n`
    for (const extra of [', site: {$ref: "#/definitions/s"}', ', "$ref": {type: string}']) {
      expect((await load({ 'rules.yaml': rule(extra) })).diagnostics.map((d) => d.message)).toEqual([TOO_LARGE])
    }
    const endless = `policies:\n  - name: many\n    kind: target\n    require: {properties: {site: {$ref: "#/properties/site"}}}\n`
    expect((await load({ 'rules.yaml': endless })).diagnostics.map((d) => d.message)).toEqual([RECURSES])
  }, 60_000)
})
