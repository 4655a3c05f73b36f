// A first rule about URLs: `pattern: "^https://[a-z]+\.example\.com/"`, or a ticket number
// `"\d+"`, in double quotes as JSON Schema examples show them. In YAML's double quotes a backslash
// starts an escape, so the file was refused with the parser's bare "Invalid escape sequence \.",
// which did not say what to write. The error now says how: single quotes, or the backslash doubled.
import { afterAll, describe, expect, it } from 'vitest'
import { columnOf, lineOf, load, removeTestdirs } from './helpers.js'

afterAll(removeTestdirs)

describe('a backslash YAML double quotes do not know', () => {
  it('is an error at the escape saying to write the text in single quotes or double the backslash', async () => {
    const text = `policies:
  - name: ticket
    kind: target
    require:
      properties:
        site: {properties: {desc: {pattern: "^[A-Z]+-\\d+"}}}
`
    const { diagnostics } = await load({ 'rules.yaml': text })
    expect(diagnostics.map((d) => `${d.line}:${d.column}: ${d.message}`)).toEqual([
      `${lineOf(text, '\\d+')}:${columnOf(text, '\\d+')}: YAML: Invalid escape sequence \\d (inside "…" a backslash starts an escape: write a text that holds backslashes, such as a pattern, in single quotes ('^[a-z]+\\d'), or double each backslash ("\\\\d"))`,
    ])
  })
})
