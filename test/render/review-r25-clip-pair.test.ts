// Two long values of a change, clipped for the pull-request comment, show where they differ
// (test/e2e/review-r25-long-value-difference.test.ts drives the CLI).
import { describe, expect, it } from 'vitest'
import { clipPair } from '../../src/render/markdown.js'

describe('clipPair', () => {
  it('cuts as clip does when the difference is near the start, or the values are equal', () => {
    expect(clipPair('a'.repeat(50) + 'x' + 'a'.repeat(2000), 'a'.repeat(50) + 'y' + 'a'.repeat(2000), 1000)).toEqual([
      'a'.repeat(50) + 'x' + 'a'.repeat(949) + '… (1,051 more characters)',
      'a'.repeat(50) + 'y' + 'a'.repeat(949) + '… (1,051 more characters)',
    ])
    const same = 'z'.repeat(3000)
    expect(clipPair(same, same, 1000)).toEqual([same.slice(0, 1000) + '… (2,000 more characters)', same.slice(0, 1000) + '… (2,000 more characters)'])
  })

  it('starts a little before a difference past the cut, saying how much it left out', () => {
    const [before, after] = clipPair('a'.repeat(3000) + 'x' + 'b'.repeat(10), 'a'.repeat(3000) + 'y', 1000)
    expect(before).toBe(`(2,900 characters before) …${'a'.repeat(100)}x${'b'.repeat(10)}`)
    expect(after).toBe(`(2,900 characters before) …${'a'.repeat(100)}y`)
  })

  it('does not split a character outside the BMP at the start', () => {
    const prefix = 'a'.repeat(2899) + '😀' + 'a'.repeat(99)
    const [before, after] = clipPair(prefix + 'x', prefix + 'y', 1000)
    expect(before).toBe(`(2,899 characters before) …😀${'a'.repeat(99)}x`)
    expect(after).toBe(`(2,899 characters before) …😀${'a'.repeat(99)}y`)
  })
})
