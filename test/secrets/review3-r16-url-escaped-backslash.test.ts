// Review 3, round 16: the output step ended a URL at any backslash run followed by n (or r, t, f,
// v, or \u of a space), whatever the run's length: in a JSON-quoted value a password holding a
// backslash and an n (redis://:Se\nret-Pw@cache, written "redis://:Se\\nret-Pw@cache") was then
// printed whole. An even run is escaped backslashes: only an odd run escapes a break.
import { describe, expect, it } from 'vitest'
import { Redaction } from '../../src/core/redaction.js'

describe('the output step and a URL password holding a backslash', () => {
  const output = new Redaction('a-token-123456').output
  it('a JSON-quoted password with a backslash and an n is hidden', () => {
    const value = 'redis://:Se\\nret-Pw@cache:6379/0'
    expect(output(JSON.stringify(value))).toBe('"redis://:(sensitive)@cache:6379/0"')
    expect(output(JSON.stringify({ after: 'x https://u:Pa\\tss@h/ y' }))).toBe('{"after":"x https://u:(sensitive)@h/ y"}')
    expect(output(JSON.stringify('https://u:Pa\\u2028ss@h/'))).not.toContain('Pa')
  })
  it('an escaped line break still ends the URL', () => {
    const desc = 'Dashboard: https://grafana.example.com:3000\nops@example.com\n'
    expect(output(JSON.stringify(desc))).toBe(JSON.stringify(desc))
    expect(output(JSON.stringify('a\\' + desc))).toBe(JSON.stringify('a\\' + desc))
  })
})
