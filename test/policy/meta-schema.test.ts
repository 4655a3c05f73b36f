// Rules are checked against the meta-schema by a validator compiled at build time
// (dist/schema/policy-meta.cjs, `npm run build`): it must judge as the policy Ajv itself does.
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import type { ValidateFunction } from 'ajv'
import { createPolicyAjv } from '../../src/schema/policy-ajv.js'

const precompiled = createRequire(import.meta.url)('../../dist/schema/policy-meta.cjs') as ValidateFunction

const SCHEMAS: unknown[] = [
  { required: ['labels'], properties: { labels: { contains: { properties: { name: { const: 'production' } } } } } },
  { required: 'labels' },
  { type: 'strin' },
  { minLength: -1 },
  { enum: [] },
  { items: [true, 3] },
  { properties: { a: { maxItems: 'x' } } },
  { anyOf: [] },
  { pattern: 7 },
  { if: { required: ['a'] }, then: false },
]

describe('the precompiled meta-schema validator', () => {
  it('finds a rule well-formed, or not, with the same first error as Ajv', () => {
    const ajv = createPolicyAjv()
    for (const schema of SCHEMAS) {
      const valid = ajv.validateSchema(schema as object) as boolean
      const errors = (ajv.errors ?? []).map((e) => [e.instancePath, e.message])
      expect([schema, precompiled(schema)]).toEqual([schema, valid])
      expect((precompiled.errors ?? []).map((e) => [e.instancePath, e.message])).toEqual(valid ? [] : errors)
    }
  })
})
