// A target whose values come from thousands of `${VAR}` references: learning its secrets looked
// for each value in each template (values × templates searches, quadratic: 16,000 headers spent
// 1.8 s of every run, 60,000 about 16 s). Now each value is looked for once, in the templates
// joined (counted here, not timed), with the same answer: a value the configuration writes itself (a fallback) stays in a file's text, a
// value from a variable is hidden everywhere, and a match across two templates is not a writing.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Redaction } from '../../src/core/redaction.js'
import { learnSecrets } from '../../src/secrets/known.js'
import { declare } from '../helpers/declare.js'

const HEADERS = 4_000

afterEach(() => vi.restoreAllMocks())

describe('learning the secrets of a target with many variable references', () => {
  it('looks for each of 4,000 variable values once, not in each template, and hides each in output and files', () => {
    const env: Record<string, string> = {}
    const headers = Array.from({ length: HEADERS }, (_, i) => {
      env[`HEADER_SECRET_${i}`] = `header-secret-value-${i}`
      return { name: `X-Secret-${i}`, value: `\${HEADER_SECRET_${i}}`, value_is_sensitive: true }
    })
    const target = declare('target', { id: 'TgMany', site: { headers } }, env)
    const redaction = new Redaction('a-long-api-token-for-tests')
    const includes = vi.spyOn(String.prototype, 'includes')
    learnSecrets(redaction, [target])
    // A few searches per value (the joined templates, the value's own checks), not 16 million.
    expect(includes.mock.calls.length).toBeLessThan(10 * HEADERS)
    includes.mockRestore()
    for (const i of [0, 1, 1_234, HEADERS - 1]) {
      expect(redaction.output(`sent header-secret-value-${i}.`)).toBe('sent (sensitive).')
      expect(redaction.file(`sent header-secret-value-${i}.`)).toBe('sent (sensitive).')
    }
  })

  it('keeps in files a value the configuration writes, not one that only straddles two templates', () => {
    const target = declare(
      'target',
      {
        id: 'TgFallback',
        site: {
          headers: [
            { name: 'X-Written', value: '${UNSET_ONE:-written-fallback-value}', value_is_sensitive: true },
            { name: 'X-Left', value: 'left-half-${LEFT_VAR}', value_is_sensitive: true },
            { name: 'X-Right', value: '${RIGHT_VAR}-right-half', value_is_sensitive: true },
          ],
        },
      },
      { LEFT_VAR: '-right-half', RIGHT_VAR: 'left-half-' },
    )
    const redaction = new Redaction('a-long-api-token-for-tests')
    learnSecrets(redaction, [target])
    // The fallback is in the templates: hidden on output, kept in a file that copies them.
    expect(redaction.output('x written-fallback-value x')).toBe('x (sensitive) x')
    expect(redaction.file('x written-fallback-value x')).toBe('x written-fallback-value x')
    // "left-half--right-half" is each header's value; no template holds it whole (it would span
    // the end of one and the start of the next): hidden in files too.
    expect(redaction.file('x left-half--right-half x')).toBe('x (sensitive) x')
  })
})
