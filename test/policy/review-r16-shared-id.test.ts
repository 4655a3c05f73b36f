// A shared piece of schema under an x- key, used by several rules through an alias (README,
// "Writing when"), may carry an `$id` (copied from a schema library, say). Each rule is compiled
// on its own; Ajv kept every compiled schema by its `$id`, so the second rule using the piece
// failed: `policy b: when: schema with key or id "…" already exists`, at its `when:` key.
import { afterAll, describe, expect, it } from 'vitest'
import { load, removeTestdirs } from '../config/helpers.js'

afterAll(removeTestdirs)

describe('rules sharing a piece of schema that has an $id', () => {
  it('each compiles, and each checks what it says (references to the piece\'s own $id included)', async () => {
    const text = `x-production: &production
  $id: https://example.com/rules/production
  definitions:
    labelled: {required: [labels]}
  allOf: [{$ref: "https://example.com/rules/production#/definitions/labelled"}]
  properties: {labels: {contains: {required: [name], properties: {name: {const: production}}}}}
policies:
  - name: a
    kind: target
    when: *production
    require: {required: [blackout_period]}
  - name: b
    kind: target
    when: *production
    require: {required: [report_type]}
  - name: c
    kind: asset
    require: {$id: https://example.com/rules/production, required: [state]}
`
    const loaded = await load({ 'rules.yaml': text })
    expect(loaded.diagnostics).toEqual([])
    const [a, b, c] = loaded.policies
    const production = { id: 'T1', labels: [{ name: 'production' }] }
    expect([a!.when!(production), a!.when!({ id: 'T2', labels: [{ name: 'staging' }] }), a!.when!({ id: 'T3' })]).toEqual([true, false, false])
    expect([a!.require(production), b!.require(production), b!.require({ ...production, report_type: 'pci4' })]).toEqual([false, false, true])
    expect([c!.require({ id: 'A1' }), c!.require({ id: 'A1', state: 'ACTIVE' })]).toEqual([false, true])
  })
})

describe('a shared piece with an $id used inside one rule and as the whole of another', () => {
  it('each compiles: the $id Ajv kept for the piece inside the first (under allOf) is forgotten too', async () => {
    const text = `x-production: &production
  $id: https://example.com/rules/production
  properties: {labels: {contains: {required: [name], properties: {name: {const: production}}}}}
policies:
  - name: a
    kind: target
    when: {allOf: [*production, {required: [labels]}]}
    require: {required: [blackout_period]}
  - name: b
    kind: target
    when: *production
    require: {required: [report_type]}
  - name: c
    kind: target
    require: {definitions: {p: {$id: "https://example.com/rules/production", const: 1}}}
`
    const loaded = await load({ 'rules.yaml': text })
    expect(loaded.diagnostics).toEqual([])
    const [a, b] = loaded.policies
    const production = { id: 'T1', labels: [{ name: 'production' }] }
    expect([a!.when!(production), a!.when!({ id: 'T2' }), b!.when!(production), b!.when!({ id: 'T3', labels: [{ name: 'staging' }] })]).toEqual([true, false, true, false])
  })
})
