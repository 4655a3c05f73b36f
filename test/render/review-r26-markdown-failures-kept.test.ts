// Review round 26 (the big apply on a bad day): an apply of 3,000 changes with a few failures spread
// through it. Its markdown report (the pull-request comment) is cut at GitHub's comment limit, and
// the cut kept the first rows in plan order: the failures past the first ~1,000 rows were left out,
// under a note counting "more changed resources" as if they were all alike. The comment said
// "17 failed" and listed 7 of them.
import { describe, expect, it } from 'vitest'
import { renderApplyReport } from '../../src/render/index.js'
import { bigPlan } from './builders.js'

const tableRows = (text: string) => text.split('\n').filter((line) => /^\| [~✓✗-] \|/.test(line))

function report(count: number, failing: ReadonlySet<number>, notSent: ReadonlySet<number> = new Set()) {
  const results = bigPlan(count).changes.map((c, i) =>
    failing.has(i)
      ? { ...c, result: 'failed' as const, error: `labels: Label "env-prod" is reserved. (config/targets/many.yaml:${i * 10 + 3})` }
      : notSent.has(i)
        ? { ...c, result: 'not_applied' as const, error: 'interrupted before it started' }
        : { ...c, result: 'applied' as const },
  )
  const failed = failing.size + notSent.size
  return { results, summary: { change: count, unchanged: 0, applied: count - failed, failed, not_applied: notSent.size } }
}

describe('markdown apply report cut at the comment limit', () => {
  const failing = new Set([17, 55, 901, 1203, 1500, 2203, 2999])
  const notSent = new Set([2500])

  it('lists every change that was not applied, in plan order among the rows kept', () => {
    const text = renderApplyReport(report(3_000, failing, notSent), 'markdown')
    expect(text.length).toBeLessThanOrEqual(65_536)
    expect(text).toContain('**Apply: 2992 applied, 8 failed, 1 not applied, 0 unchanged.**')
    const rows = tableRows(text)
    expect(rows.length).toBeGreaterThan(100)
    for (const i of [...failing, ...notSent]) {
      const id = `T${String(i).padStart(6, '0')}`
      expect(rows.filter((row) => row.includes(`<code>${id}</code>`)), id).toHaveLength(1)
    }
    expect(rows.filter((row) => row.startsWith('| ✗ |'))).toHaveLength(failing.size)
    // Rows stay in plan order (by id).
    const ids = rows.map((row) => /<code>(T\d+)<\/code>/.exec(row)![1])
    expect([...ids].sort()).toEqual(ids)
    // The note says that what it leaves out was applied.
    expect(text.trimEnd().split('\n').at(-1)).toBe(
      `_… ${(3_000 - rows.length).toLocaleString('en-US')} more changed resources not listed above (each of them applied), and no resource details shown ` +
        '(the comment limit is 65,536 characters); the text output (`--format text`) has the full report._',
    )
  })

  it('when even the failures do not all fit, lists as many as fit and does not say the rest were applied', () => {
    const all = new Set(Array.from({ length: 3_000 }, (_, i) => i))
    const text = renderApplyReport(report(3_000, all), 'markdown')
    expect(text.length).toBeLessThanOrEqual(65_536)
    expect(text).not.toContain('each of them applied')
    expect(text).toMatch(/more changed resources not listed above, and no resource details shown/)
  })
})
