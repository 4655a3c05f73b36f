// Review 3, round 16: the client hides each URL's password in the service's words before cutting
// them at 300 characters, but read them as a printed text, where a backslash and an n is an escaped
// line break that ends the URL: the words are the service's own (parsed, not escaped), so a
// password holding a backslash and an n (redis://:Se\nret-Password-1@cache) was left, and a cut
// through it printed its start with no `@` left for anything after to know it by.
import { describe, expect, it } from 'vitest'
import { errorForResponse } from '../../src/client/responses.js'
import { Redaction } from '../../src/core/redaction.js'

const ctx = { method: 'POST', path: '/targets/', clean: (text: string) => text, withhold: () => false, mentionsWeak: () => false }
const answer = (status: number, text: string) =>
  errorForResponse({ status, headers: { 'content-type': 'application/json' }, text, url: new URL('http://127.0.0.1/'), attempts: 1 }, ctx)

describe("a URL's password with a backslash in the service's shortened words", () => {
  it('is hidden before the cut, in the error and as printed', () => {
    const output = new Redaction('a-token-123456').output
    for (const pad of [270, 285]) {
      const detail = `${'x'.repeat(pad)} redis://:Se\\nret-Password-1@cache:6379/0 unreachable`
      const error = answer(500, JSON.stringify({ detail }))
      expect(error.message).toContain('…')
      expect(error.message).not.toContain('Se\\nret')
      expect(output(error.message)).not.toContain('Se\\nret')
    }
    const plain = answer(502, 'cannot reach redis://:Se\\nret-Password-1@cache:6379/0\nretry later')
    expect(plain.message).toContain('redis://:(sensitive)@cache:6379/0 retry later')
  })
})
