// Issue 8, the fault matrix (fault-matrix.ts) on every `npm test`: a row of each kind of fault and
// outcome (retries that converge, a failed write that did or did not land, a hostile answer), the
// rows that wait out timeouts left to faults.slow.test.ts, which runs the whole matrix.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { mayHaveLanded } from '../../src/apply/executor.js'
import { ServiceUnavailableError, TimeoutError, UnexpectedResponseError, ValidationError } from '../../src/client/index.js'
import { ROOT } from '../e2e/helpers.js'
import { describeFaultMatrix } from './fault-matrix.js'
import { FAULT_ROWS } from './fault-table.js'

/** One row of each kind; the full matrix is faults.slow.test.ts. */
const EVERY_RUN = new Set([
  'Retry-After above the ceiling (3600 s; limit SCANSYNC_RETRY_AFTER_LIMIT_MS)',
  'burst of 503',
  '503 on every attempt of one write',
  'connection dropped mid-response (after the write was applied)',
  'truncated body (Content-Length longer than the body)',
  'a 200 whose body is not the resource',
])

it('the rows of every run are rows of the matrix', () => {
  expect(FAULT_ROWS.filter((row) => EVERY_RUN.has(row.fault))).toHaveLength(EVERY_RUN.size)
})

describeFaultMatrix(FAULT_ROWS.filter((row) => EVERY_RUN.has(row.fault)))

describe('docs/reliability.md', () => {
  it('has a row for every fault of the matrix', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'reliability.md'), 'utf8')
    for (const row of FAULT_ROWS) expect(doc, row.fault).toContain(`| ${row.fault} |`)
  })
})

describe('a failed write whose outcome is unknown says so (it said only "failed", though it had landed)', () => {
  const network = (code: string) => Object.assign(new Error(code), { code })
  it.each([
    ['a timeout', new TimeoutError('x'), true],
    ['a connection reset after the request went out', new ServiceUnavailableError('x', { cause: network('ECONNRESET') }), true],
    ['a connection refused (nothing was sent)', new ServiceUnavailableError('x', { cause: network('ECONNREFUSED') }), false],
    ['a host not found (nothing was sent)', new ServiceUnavailableError('x', { cause: network('ENOTFOUND') }), false],
    ['a 200 with a body cut off', new UnexpectedResponseError('x', { status: 200 }), true],
    ['a 500', new ServiceUnavailableError('x', { status: 500 }), true],
    ['a 502', new ServiceUnavailableError('x', { status: 502 }), true],
    ['a 504', new ServiceUnavailableError('x', { status: 504 }), true],
    // A review of the twelfth round's release: a gateway's 503 after the creation had landed was reported as plainly failed.
    ['a 503 (a gateway may answer it for a request the service took)', new ServiceUnavailableError('x', { status: 503 }), true],
    ['a 429', new ServiceUnavailableError('x', { status: 429 }), false],
    ['a 400', new ValidationError('x', { status: 400, fieldErrors: {}, problems: [] }), false],
    ['a redirect (not followed)', new UnexpectedResponseError('x', { status: 302 }), false],
    ['not a service error (refused before sending)', new Error('x'), false],
  ])('%s: %s', (_, error, expected) => {
    expect(mayHaveLanded(error)).toBe(expected)
  })
})
