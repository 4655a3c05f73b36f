// Review round 26 (files written on Windows and by Windows tools): a line pasted from Word or
// Outlook holds non-breaking spaces (U+00A0) where a space was typed, after a key's colon or in
// its indentation. YAML reads them as letters, and the errors said nothing of them, which no
// editor shows: "YAML: Implicit map keys need to be followed by map values" at the key, "site must
// be a mapping (got a string)", "\u00a0 name: unknown field". Each error on such a line now says
// where the non-breaking space is and to type a plain space instead.
import { afterAll, describe, expect, it } from 'vitest'
import { refusedFile, removeTestdirs } from './helpers.js'

afterAll(removeTestdirs)

const HINT = 'a non-breaking space (U+00A0), which YAML reads as a letter, not as a space (text pasted from a word processor or a mail brings them): type a plain space instead'

describe('a non-breaking space where YAML needs a space', () => {
  it('after the colon of a key: the error says so, with its column', async () => {
    const { lines } = await refusedFile('assets:\r\n  - id: 9fGh2Kd8LmQz\r\n    comment: x\r\n    state:\u00a0ARCHIVED\r\n')
    expect(lines).toEqual([`a.yaml:4:5: YAML: Implicit map keys need to be followed by map values (the line holds ${HINT}, at column 11)`])
  })

  it('after the colon of a key whose value then reads as a text', async () => {
    const { lines } = await refusedFile('targets:\n  - id: 2DZkoZH8WMEM\n    site:\n      name:\u00a0A\n')
    expect(lines).toEqual([`a.yaml:4:7: target 2DZkoZH8WMEM: site must be a mapping (got a string) (the line holds ${HINT}, at column 12)`])
  })

  it('in the indentation', async () => {
    const { lines } = await refusedFile('targets:\n  - id: 2DZkoZH8WMEM\n    site:\n    \u00a0 name: A\n')
    expect(lines.at(-1)).toContain(`(the line holds ${HINT}, at column 5)`)
    expect(lines[0]).not.toContain('non-breaking')
  })

  it('inside a value it is text, and an error elsewhere on the line says nothing of it', async () => {
    const { lines } = await refusedFile('assets:\n  - id: 9fGh2Kd8LmQz\n    state: NOPE # 10\u00a0%\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).not.toContain('non-breaking')
  })
})

// Review round 26 (the day's diff): the pattern was written in a template string, where `\s` is a
// plain `s`: a key at the line's start beginning with an s was never found (and a space could
// open the key, past the characters the pattern means to exclude).
describe('a non-breaking space after a key that begins with s, at the start of the line', () => {
  it('is said as after any other key', async () => {
    const { lines } = await refusedFile('schedule:\u00a0nightly\ntargets: []\n')
    expect(lines[0]).toContain(`(the line holds ${HINT}, at column 10)`)
  })

  it('after a quoted key too', async () => {
    const { lines } = await refusedFile('targets:\n  - id: 2DZkoZH8WMEM\n    site:\n      "name":\u00a0A\n')
    expect(lines[0]).toContain(`(the line holds ${HINT}, at column 14)`)
  })
})
