'use strict'
/**
 * The string formats of the schemas in schemas/, as ajv-formats defines them (its "full" mode), for
 * the Ajv that validates against them and for the validators compiled ahead of time
 * (dist/schema/validators.cjs requires this file: hence CommonJS, copied to dist/ by the build).
 */
const { fullFormats } = require('ajv-formats/dist/formats')

/**
 * `scheme://host[:port][/path][?query][#fragment]` without %-escapes, user info or IP literals:
 * each part is one of the alternatives of ajv-formats' URI pattern with fewer characters allowed, so
 * whatever this accepts that pattern accepts too (test/schema/formats.test.ts checks it). V8 compiles
 * ajv-formats' pattern (IPv6 literals spelt out, case-insensitive) in ~7 ms at its first two uses,
 * 3% of a small plan's CPU; this one in a fraction of that. Other URIs are judged by ajv-formats.
 */
const COMMON_URI = /^[a-z][a-z0-9+\-.]*:\/\/[a-z0-9\-._~!$&'()*+,;=]*(?::\d*)?(?:\/[a-z0-9\-._~!$&'()*+,;=:@]*)*(?:\?[a-z0-9\-._~!$&'()*+,;=:@/?]*)?(?:#[a-z0-9\-._~!$&'()*+,;=:@/?]*)?$/i

/** ajv-formats' `uri`, answered first by the common shape. */
function uri(text) {
  return COMMON_URI.test(text) || fullFormats.uri(text)
}

module.exports = { COMMON_URI, formats: { uri, email: fullFormats.email, 'date-time': fullFormats['date-time'], uuid: fullFormats.uuid } }
