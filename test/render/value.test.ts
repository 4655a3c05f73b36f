import { describe, expect, it } from 'vitest'
import { formatValue } from '../../src/render/index.js'

describe('formatValue', () => {
  it.each([
    ['Shop', '"Shop"'],
    [true, 'true'],
    [42, '42'],
    [null, 'null'],
    [undefined, '(none)'],
    [['a', 'b'], '["a", "b"]'],
    [[], '[]'],
    [{}, '{}'],
    [{ name: 'pci', color: '#d93f0b' }, '{name: "pci", color: "#d93f0b"}'],
    [{ 'X-Api-Key': 1, 'two words': 2, skipped: undefined }, '{X-Api-Key: 1, "two words": 2}'],
    [{ begin: '22:00', weekdays: [1, 2], nested: { enabled: false } }, '{begin: "22:00", weekdays: [1, 2], nested: {enabled: false}}'],
    ['say "hi"\n\\', '"say \\"hi\\"\\n\\\\"'],
  ])('%j prints as %s', (value, text) => {
    expect(formatValue(value)).toBe(text)
  })

  it('escapes terminal escapes and bidirectional overrides so they cannot rewrite the screen', () => {
    expect(formatValue('\u001b[2Jevil\u202e')).toBe('"\\u001b[2Jevil\\u202e"')
  })

  it('survives a cycle', () => {
    const cyclic: Record<string, unknown> = { a: 1 }
    cyclic.self = cyclic
    expect(formatValue(cyclic)).toBe('{a: 1, self: (circular)}')
  })
})
