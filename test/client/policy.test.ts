import { describe, expect, it } from 'vitest'

import { AdaptiveConcurrency, backoffDelay, flattenFieldErrors, parseJson, parseRetryAfter } from '../../src/client/index.js'

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z')

  it('reads seconds', () => {
    expect(parseRetryAfter('0', now)).toBe(0)
    expect(parseRetryAfter('5', now)).toBe(5000)
    expect(parseRetryAfter(' 3600 ', now)).toBe(3_600_000)
    expect(parseRetryAfter('1.5', now)).toBe(1500)
  })

  it('reads an HTTP date', () => {
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000)
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', now)).toBe(0)
  })

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined()
    expect(parseRetryAfter('', now)).toBeUndefined()
    expect(parseRetryAfter('-5', now)).toBeUndefined()
    expect(parseRetryAfter('soon', now)).toBeUndefined()
  })
})

describe('backoffDelay', () => {
  const settings = { baseMs: 100, maxMs: 1000 }

  it('grows exponentially up to the maximum, with full jitter', () => {
    expect(backoffDelay(0, settings, () => 0.999)).toBe(99)
    expect(backoffDelay(1, settings, () => 0.999)).toBe(199)
    expect(backoffDelay(3, settings, () => 0.999)).toBe(799)
    expect(backoffDelay(4, settings, () => 0.999)).toBe(999)
    expect(backoffDelay(50, settings, () => 0.999)).toBe(999)
    expect(backoffDelay(3, settings, () => 0)).toBe(0)
  })
})

describe('flattenFieldErrors', () => {
  it('flattens nested DRF bodies', () => {
    expect(flattenFieldErrors({ site: { name: ['This field is required.'], url: ['Enter a valid URL.', 'Too long.'] } })).toEqual([
      { path: 'site.name', messages: ['This field is required.'] },
      { path: 'site.url', messages: ['Enter a valid URL.', 'Too long.'] },
    ])
  })

  it('puts non_field_errors on their object and indexes list items', () => {
    expect(
      flattenFieldErrors({
        non_field_errors: ['Nope.'],
        site: { non_field_errors: ['Bad site.'] },
        labels: [{}, { name: ['Unknown label.'] }],
        scan_profile: 'Invalid pk.',
        errors: [{ code: 'x', message: 'coded' }],
      }),
    ).toEqual([
      { path: '', messages: ['Nope.'] },
      { path: 'site', messages: ['Bad site.'] },
      { path: 'labels.1.name', messages: ['Unknown label.'] },
      { path: 'scan_profile', messages: ['Invalid pk.'] },
      { path: 'errors', messages: ['coded'] },
    ])
  })
})

describe('parseJson', () => {
  it('tells empty, truncated and not-JSON apart', () => {
    expect(parseJson('{"a":1}')).toEqual({ ok: true, value: { a: 1 } })
    expect(parseJson('  ')).toEqual({ ok: false, reason: 'empty' })
    expect(parseJson('{"a": [1, 2')).toEqual({ ok: false, reason: 'truncated' })
    expect(parseJson('{"a": "abc')).toEqual({ ok: false, reason: 'truncated' })
    expect(parseJson('[1,')).toEqual({ ok: false, reason: 'truncated' })
    expect(parseJson('{"a": tr')).toEqual({ ok: false, reason: 'truncated' })
    expect(parseJson('<html>')).toEqual({ ok: false, reason: 'not-json' })
    expect(parseJson('{"a": 1} x')).toEqual({ ok: false, reason: 'not-json' })
  })
})

describe('AdaptiveConcurrency', () => {
  it('halves once per wave of 429s and recovers additively', () => {
    const limiter = new AdaptiveConcurrency(8)
    limiter.throttled(0)
    expect(limiter.allowed).toBe(4)
    limiter.throttled(0) // same wave: ignored
    expect(limiter.allowed).toBe(4)
    limiter.throttled(1)
    expect(limiter.allowed).toBe(2)
    limiter.throttled(2)
    limiter.throttled(3)
    expect(limiter.allowed).toBe(1)
    limiter.succeeded()
    expect(limiter.allowed).toBe(2)
    limiter.succeeded()
    limiter.succeeded()
    expect(limiter.allowed).toBe(3)
    for (let i = 0; i < 100; i++) limiter.succeeded()
    expect(limiter.allowed).toBe(8)
  })
})
