// Review round 26 (an apply report a person can act on): the recap that ends a text (and github)
// apply report: failures first, then changes not sent, then those applied with a warning, each
// once with its place; at most 20, then "… and N more"; none when all applied cleanly.
import { describe, expect, it } from 'vitest'
import { renderApplyReport } from '../../src/render/index.js'
import { bigPlan, report, result, sampleReport, shop } from './builders.js'

function big(count: number, failing: ReadonlySet<number>, notSent: ReadonlySet<number> = new Set(), warned: ReadonlySet<number> = new Set()) {
  return report(
    bigPlan(count).changes.map((c, i) =>
      failing.has(i)
        ? result(c, 'failed', { error: `labels: Label "env-prod" is reserved.\nsecond line` })
        : notSent.has(i)
          ? result(c, 'not_applied', { error: 'not sent: the service stopped answering' })
          : result(c, 'applied', warned.has(i) ? { warnings: ['site.desc was accepted but not stored by the service'] } : {}),
    ),
    0,
  )
}

const recapOf = (text: string) => {
  const lines = text.trimEnd().split('\n')
  const start = lines.findIndex((line) => line.startsWith('Needs attention ('))
  return start < 0 ? [] : lines.slice(start, lines.indexOf('', start))
}

describe('apply recap', () => {
  it('lists failures first, then not sent, then warnings, each at its place', () => {
    const text = renderApplyReport(big(3_000, new Set([2_999, 5]), new Set([7]), new Set([3])), 'text')
    expect(recapOf(text)).toEqual([
      'Needs attention (4 of 3000 changes):',
      '  ✗ config/targets/many.yaml:51:7: target T000005 "Site number 5" failed: labels: Label "env-prod" is reserved. …',
      '  ✗ config/targets/many.yaml:29991:7: target T002999 "Site number 2999" failed: labels: Label "env-prod" is reserved. …',
      '  - config/targets/many.yaml:71:7: target T000007 "Site number 7" not applied: not sent: the service stopped answering',
      '  ✓ config/targets/many.yaml:31:7: target T000003 "Site number 3" applied, with a warning: site.desc was accepted but not stored by the service',
    ])
    expect(text.trimEnd().split('\n').at(-1)).toBe('Apply: 2997 applied, 2 failed, 1 not applied, 0 unchanged.')
  })

  it('names at most 20, then says how many more', () => {
    const recap = recapOf(renderApplyReport(big(100, new Set(Array.from({ length: 25 }, (_, i) => i * 4))), 'text'))
    expect(recap[0]).toBe('Needs attention (25 of 100 changes):')
    expect(recap).toHaveLength(22)
    expect(recap.at(-1)).toBe('  … and 5 more, each listed above')
  })

  it('none when every change applied cleanly, or when the report holds one change', () => {
    expect(recapOf(renderApplyReport(big(50, new Set()), 'text'))).toEqual([])
    expect(recapOf(renderApplyReport(report([result(shop, 'failed', { error: 'boom' })], 0), 'text'))).toEqual([])
  })

  it('the github report ends with it too, as plain lines, file names as its annotations name them', () => {
    const text = renderApplyReport(sampleReport(), 'github', { annotationFile: (file) => `repo/${file}` })
    expect(recapOf(text)).toEqual([
      'Needs attention (3 of 3 changes):',
      '  ✗ repo/config/assets.yaml:2:5: asset 9fGh2Kd8LmQz "legacy.example.com" failed: 400 Bad Request: state: "ARCHIVED" is not a valid choice. …',
      '  - agent 3kLx8Qy7Pb2m not applied (interrupted)',
      '  ✓ repo/config/targets/shop.yaml:2:5: target 2DZkoZH8WMEM "Shop (production)" applied, with a warning: site.desc was accepted but not stored by the service',
    ])
    expect(text.trimEnd().split('\n').at(-1)).toBe('Apply: 1 applied, 1 failed, 1 not applied, 41 unchanged.')
  })
})
