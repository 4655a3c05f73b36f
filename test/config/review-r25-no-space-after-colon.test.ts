// A newcomer writes `url:https://a.example.com/` without the space after the colon. The error was
// the parser's own "Implicit map keys need to be followed by map values", which does not say what
// to change. Now it names the key and says to add the space, without repeating the value.
import { afterAll, describe, expect, it } from 'vitest'
import { refusedFile, removeTestdirs } from './helpers.js'

afterAll(removeTestdirs)

describe('a key written without a space after its colon', () => {
  it('is told to add the space, at the key, without its value', async () => {
    const { lines, stderr } = await refusedFile('targets:\n  - site:\n      name: A\n      url:https://a.example.com/\n')
    expect(lines).toEqual(['a.yaml:4:7: YAML: "url:" needs a space after its colon: write url: followed by a space and the value'])
    expect(stderr).not.toContain('a.example.com')
  })
})
