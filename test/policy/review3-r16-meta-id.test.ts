// Review 3, round 16: after a rule fails to compile, its `$id` is forgotten (forgetId) by removing
// the schema Ajv keeps under that id, which for a rule naming the meta-schema's id was the
// meta-schema itself: every later rule, valid alone, was then refused with 'no schema with key or
// ref "http://json-schema.org/draft-07/schema"'. What Ajv kept before the rule stays.
import { afterAll, describe, expect, it } from 'vitest'
import { load, removeTestdirs } from '../config/helpers.js'

afterAll(removeTestdirs)

describe("a rule whose $id is one Ajv already holds", () => {
  it('is an error of its own; the rules after it compile', async () => {
    for (const id of ['http://json-schema.org/draft-07/schema#', 'http://json-schema.org/draft-07/schema']) {
      const text = `policies:\n  - name: c\n    kind: target\n    require: {$id: "${id}", type: object}\n  - name: d\n    kind: target\n    require: {required: [site]}\n`
      const diagnostics = (await load({ 'rules.yaml': text })).diagnostics.map((d) => d.message)
      expect(diagnostics.filter((m) => m.startsWith('policy d'))).toEqual([])
      expect(diagnostics.filter((m) => m.startsWith('policy c'))).toHaveLength(1)
    }
  })
})
