// A rule that is no valid JSON Schema is placed by Ajv's instancePath, a plain JSON pointer: a
// member named with a % (`a%`, `50%`) was URI-decoded, and validate crashed with `URIError: URI malformed`.
import { afterAll, describe, expect, it } from 'vitest'
import { lineOf, load, removeTestdirs } from '../config/helpers.js'

afterAll(removeTestdirs)

describe('a rule that is no valid JSON Schema, under a member whose name holds a %', () => {
  it('is an error at that member\'s keyword, not a crash', async () => {
    const text = `policies:
  - name: c
    kind: target
    require: {properties: {"a%": {type: nonsense}}}
  - name: g
    kind: target
    require: {properties: {"a%25": {type: nonsense}}}
`
    const diagnostics = (await load({ 'rules.yaml': text })).diagnostics.map((d) => `${d.line}:${d.column}: ${d.message.split(' is not')[0]}`)
    expect(diagnostics).toEqual([`${lineOf(text, '"a%"')}:41: policy c: require.properties.a%.type`, `${lineOf(text, '"a%25"')}:43: policy g: require.properties.a%25.type`])
  })
})
