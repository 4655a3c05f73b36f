// Review 3, round 16: apply replaces the start of a secret just before a cut (…) in the service's
// words by trying every length of it from the longest down, each compared from its start: with a
// long URL password in the words (a secret of the words themselves) and a long run of its first
// characters before a …, that was the product of their lengths (a 150,000-character password did
// not end within the test's time; no timing is asserted). Now one pass over each.
import { describe, expect, it } from 'vitest'
import { describeFailure } from '../../src/apply/change.js'
import type { DesiredResource } from '../../src/core/types.js'
import { KINDS } from '../../src/resources/index.js'

const words = (message: string) => describeFailure(new Error(message), KINDS.target, {} as DesiredResource, {})

describe("the start of a secret before a cut in the service's words", () => {
  it('is replaced as before', () => {
    expect(words('https://u:Secret-Pw-123@h/ then Secret-P…')).toBe('https://u:(sensitive)@h/ then (sensitive)…')
    expect(words('https://u:Secret-Pw-123@h/ then Secret-Pw-123 and Secret-Pw-12…')).toBe('https://u:(sensitive)@h/ then (sensitive) and (sensitive)…')
    expect(words('https://u:abab-abac@h/ x ababab… abab-aba…')).toBe('https://u:(sensitive)@h/ x ab(sensitive)… (sensitive)…')
    expect(words('https://u:Secret-Pw-123@h/ nothing here…')).toBe('https://u:(sensitive)@h/ nothing here…')
  })

  it('costs the lengths of the words and the secret, not their product', () => {
    const m = 150_000
    const out = words(`https://u:${'a'.repeat(m)}c${'x'.repeat(m)}@h/ ${'a'.repeat(2 * m)}…`)
    expect(out).toBe(`https://u:(sensitive)@h/ ${'a'.repeat(m)}(sensitive)…`)
  })
})
