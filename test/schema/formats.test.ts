// The schemas' `uri` format answers common URIs with a small pattern of its own before
// ajv-formats' full one (src/schema/formats.cjs): it must judge every text as ajv-formats does.
import { createRequire } from 'node:module'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import schemaFormats from '../../src/schema/formats.cjs'

const require = createRequire(import.meta.url)
const { fullFormats } = require('ajv-formats/dist/formats') as { fullFormats: Record<string, (text: string) => boolean> }
const uri = schemaFormats.formats.uri as (text: string) => boolean

const PIECES = ['a', 'Z', '9', '-', '.', '_', '~', '!', '$', '&', "'", '(', ')', '*', '+', ',', ';', '=', ':', '@', '/', '?', '#', '%', '%2F', '%zz', '[', ']', '[::1]', ' ', '\n', 'é', '\\', '"', '<', '{', '^', '|', '`', 'www', 'example', 'com', '8443', '']
const SCHEMES = ['https://', 'http://', 'HTTPS://', 'ftp://', 'a+b-c.d://', 'https:/', 'https:', '1http://', '://', '', 'https:///', 'mailto:']

/** Texts shaped like URIs and near misses: a scheme, then pieces of every class the patterns tell apart. */
const uriLike = fc.tuple(fc.constantFrom(...SCHEMES), fc.array(fc.constantFrom(...PIECES), { maxLength: 12 })).map(([scheme, pieces]) => scheme + pieces.join(''))

const REAL = [
  'https://shop.example.com/',
  'https://shop.example.com:8443/login?next=/account#form',
  'http://10.0.0.1/',
  'http://[::1]:8080/',
  'https://user:pass@example.com/',
  'https://example.com/a%20b',
  'https://example.com/a b',
  'https://exa mple.com/',
  'https://example.com/é',
  'urn:isbn:0451450523',
  'mailto:someone@example.com',
  'example.com',
  '/relative/path',
  '',
  'https://',
  'HTTP://EXAMPLE.COM/PATH?Q=1#F',
]

describe('the `uri` format', () => {
  it('judges real and broken URIs as ajv-formats does', () => {
    for (const text of REAL) expect(uri(text), JSON.stringify(text)).toBe(fullFormats.uri(text))
  })

  it('judges 40,000 generated texts as ajv-formats does, and its own pattern accepts only what ajv-formats accepts', () => {
    let common = 0
    fc.assert(
      fc.property(uriLike, (text) => {
        const inCommon = schemaFormats.COMMON_URI.test(text)
        if (inCommon) common++
        return (!inCommon || fullFormats.uri(text)) && uri(text) === fullFormats.uri(text)
      }),
      { numRuns: 40_000, seed: 20261126 },
    )
    // Both paths are exercised: many texts take the small pattern, many do not.
    expect(common).toBeGreaterThan(4_000)
    expect(common).toBeLessThan(36_000)
  })

  it('leaves the other formats as ajv-formats defines them', () => {
    expect(schemaFormats.formats.email).toBe(fullFormats.email)
    expect(schemaFormats.formats['date-time']).toBe(fullFormats['date-time'])
    expect(schemaFormats.formats.uuid).toBe(fullFormats.uuid)
  })
})
