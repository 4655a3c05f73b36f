// A rule Ajv cannot compile because the code it writes nests too deep for V8 (thousands of
// alternatives) was said to refer to itself without end ($ref), though it holds no $ref.
import { afterAll, describe, expect, it } from 'vitest'
import { load, removeTestdirs } from '../config/helpers.js'

afterAll(removeTestdirs)

describe('a rule too large for Ajv to compile, with no $ref in it', () => {
  it('says so, not that it refers to itself without end ($ref)', async () => {
    const alternatives = Array.from({ length: 4000 }, (_, i) => `{const: v${i}}`).join(', ')
    const text = `policies:\n  - name: many\n    kind: target\n    require: {properties: {report_type: {anyOf: [${alternatives}]}}}\n`
    const messages = (await load({ 'rules.yaml': text })).diagnostics.map((d) => d.message)
    expect(messages).toEqual(['policy many: require: the schema is too large to compile (thousands of properties or alternatives); a list of allowed values is written as one enum'])
  })
})
