// The interface document's defaults a target to create is checked with (policies, plan/create.ts)
// are found by walking the request schema, `$ref`s followed. Walked anew for every target to create,
// that resolution cost some 0.1 ms a target (450 ms of a plan creating 4,200 targets with rules,
// ten times the check's cost before the defaults): the members of each place are resolved once a
// run. Counted here as look-ups of the schema documents, not as time.
import { describe, expect, it } from 'vitest'
import { defaultsFor } from '../../src/schema/defaults.js'
import { schemaDocuments } from '../../src/schema/files.js'
import { KINDS } from '../../src/resources/index.js'

describe('defaults of a request schema', () => {
  it('are the same on every call, and the schema is resolved once, not for every target', () => {
    let lookUps = 0
    const counted = (file: string) => (lookUps++, schemaDocuments(file))
    const written = { site: { name: 'N', url: 'https://n.example.com/' }, labels: [{ name: 'x' }] }
    const first = defaultsFor(counted, KINDS.target.requestSchema, written)
    expect(first).toMatchObject({ type: 'single', report_type: 'default', site: { has_basic_auth: false } })
    const afterFirst = lookUps
    for (let i = 0; i < 100; i++) expect(defaultsFor(counted, KINDS.target.requestSchema, { ...written, site: { ...written.site, name: `N${i}` } })).toEqual(first)
    // The document named, once a call; no `$ref` followed again.
    expect(lookUps - afterFirst).toBeLessThanOrEqual(100 * 2)
    expect(afterFirst).toBeGreaterThan(2)
  })
})
