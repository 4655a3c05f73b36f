// A mistake in a block that many resources merge is said once, naming five and counting the
// others. Each resource's name was looked for in the list of those already named: work quadratic
// in their number, so that 50,000 targets merging a block with three mistakes held `validate`
// (and plan, apply, drift) for more than three minutes before printing three lines. As in
// quadratic-probes.ts: no wall-clock assertion, the test's timeout is the check (the old code took
// minutes at this size; the fixed one a fraction of a second).
import { describe, expect, it } from 'vitest'
import { groupRepeated, type Diagnostic } from '../../src/core/diagnostics.js'

const BUDGET = 30_000

describe('one mistake merged by very many resources', () => {
  it('60,000 resources, named once each, in one pass', { timeout: BUDGET }, () => {
    const n = 60_000
    const diagnostics: Diagnostic[] = Array.from({ length: n }, (_, i) => {
      const subject = `target T${String(i).padStart(11, '0')}`
      return { file: 'c.yaml', line: 6, column: 19, path: `targets[${i}].blackout_period.weekdays[1]`, subject, message: `${subject}: blackout_period.weekdays[1] must be an integer (got a string)` }
    })
    const grouped = groupRepeated(diagnostics)
    expect(grouped).toHaveLength(1)
    expect(grouped[0]!.message).toBe(
      'targets T00000000000, T00000000001, T00000000002, T00000000003, T00000000004 and 59,995 more: blackout_period.weekdays[1] must be an integer (got a string)',
    )
  })
})
