import { describe, expect, it } from 'vitest'
import { renderApplyReport, renderPlan } from '../../src/render/index.js'
import { bigPlan, change, emptyPlan, field, plan, samplePlan, sampleReport } from './builders.js'
import type { Violation } from '../../src/plan/policies.js'

const tableRows = (text: string) => text.split('\n').filter((line) => /^\| [~✓✗-] \|/.test(line))
const sections = (text: string) => text.split('\n').filter((line) => line.startsWith('<details>'))

describe('markdown format', () => {
  it('plan: heading, summary, table, a collapsible section per resource', () => {
    expect(renderPlan(samplePlan(), 'markdown')).toMatchInlineSnapshot(`
      "### scansync plan

      **Plan: 3 to change, 41 unchanged.**

      | | Kind | Id | Name | Fields changed |
      | --- | --- | --- | --- | --- |
      | ~ | target | <code>2DZkoZH8WMEM</code> | Shop (production) | <code>site.name</code>, <code>site.basic\\_auth.password</code>, <code>labels</code>, <code>site.headers\\[X-Old\\]</code>, <code>scanning\\_agent</code> |
      | ~ | asset | <code>9fGh2Kd8LmQz</code> | legacy.example.com | <code>state</code>, <code>comment</code> |
      | ~ | agent | <code>3kLx8Qy7Pb2m</code> | | <code>teams</code> |

      <details><summary>~ target 2DZkoZH8WMEM "Shop (production)" (5 fields)</summary>

      | Field | Before | After |
      | --- | --- | --- |
      | <code>site.name</code> | <code>"Shop"</code> | <code>"Shop (production)"</code> |
      | <code>site.basic\\_auth.password</code> | <code>(sensitive)</code> | <code>(sensitive)</code> (changed in YAML) |
      | <code>labels</code> | <code>\\["production"\\]</code> | <code>\\["production", {name: "pci", color: "#d93f0b"}\\]</code> |
      | <code>site.headers\\[X-Old\\]</code> | <code>{name: "X-Old", value: "1"}</code> | <code>(removed)</code> |
      | <code>scanning\\_agent</code> | <code>{id: "3kLx8Qy7Pb2m"}</code> | <code>null</code> |

      </details>

      <details><summary>~ asset 9fGh2Kd8LmQz "legacy.example.com" (2 fields)</summary>

      | Field | Before | After |
      | --- | --- | --- |
      | <code>state</code> | <code>"ACTIVE"</code> | <code>"ARCHIVED"</code> |
      | <code>comment</code> | <code>(none)</code> | <code>"Decommissioned in October"</code> |

      </details>

      <details><summary>~ agent 3kLx8Qy7Pb2m (1 field)</summary>

      | Field | Before | After |
      | --- | --- | --- |
      | <code>teams</code> | <code>\\[{id: "Tm8Kq2Xa9Lp3"}\\]</code> | <code>\\[{id: "Tm8Kq2Xa9Lp3"}, {id: "Tm1Zz9Yy8Xx7"}\\]</code> |

      </details>
      "
    `)
  })

  it('drift: its own heading, summary and column names', () => {
    const text = renderPlan(samplePlan(), 'markdown', { mode: 'drift' })
    expect(text.split('\n').slice(0, 3)).toEqual(['### scansync drift', '', '**Drift: 3 resources differ from the configuration, 41 in sync.**'])
    expect(text).toContain('| Field | Service | Configuration |')
  })

  it('no changes: no table', () => {
    expect(renderPlan(emptyPlan(), 'markdown')).toMatchInlineSnapshot(`
      "### scansync plan

      **No changes. Plan: 0 to change, 44 unchanged.**
      "
    `)
  })

  it('apply report: the outcome of each change', () => {
    expect(renderApplyReport(sampleReport(), 'markdown')).toMatchInlineSnapshot(`
      "### scansync apply

      **Apply: 1 applied, 1 failed, 1 not applied, 41 unchanged.**

      | | Kind | Id | Name | Result |
      | --- | --- | --- | --- | --- |
      | ✓ | target | <code>2DZkoZH8WMEM</code> | Shop (production) | applied |
      | ✗ | asset | <code>9fGh2Kd8LmQz</code> | legacy.example.com | failed: 400 Bad Request: state: "ARCHIVED" is not a valid choice.<br>owners: unknown team |
      | - | agent | <code>3kLx8Qy7Pb2m</code> | | not applied (interrupted) |

      <details><summary>✓ target 2DZkoZH8WMEM "Shop (production)" applied, 5 fields</summary>

      - **Warning:** site.desc was accepted but not stored by the service

      | Field | Before | After |
      | --- | --- | --- |
      | <code>site.name</code> | <code>"Shop"</code> | <code>"Shop (production)"</code> |
      | <code>site.basic\\_auth.password</code> | <code>(sensitive)</code> | <code>(sensitive)</code> (changed in YAML) |
      | <code>labels</code> | <code>\\["production"\\]</code> | <code>\\["production", {name: "pci", color: "#d93f0b"}\\]</code> |
      | <code>site.headers\\[X-Old\\]</code> | <code>{name: "X-Old", value: "1"}</code> | <code>(removed)</code> |
      | <code>scanning\\_agent</code> | <code>{id: "3kLx8Qy7Pb2m"}</code> | <code>null</code> |

      </details>

      <details><summary>✗ asset 9fGh2Kd8LmQz "legacy.example.com" failed, 2 fields</summary>

      **Error:** 400 Bad Request: state: "ARCHIVED" is not a valid choice.<br>owners: unknown team

      | Field | Before | After |
      | --- | --- | --- |
      | <code>state</code> | <code>"ACTIVE"</code> | <code>"ARCHIVED"</code> |
      | <code>comment</code> | <code>(none)</code> | <code>"Decommissioned in October"</code> |

      </details>

      <details><summary>- agent 3kLx8Qy7Pb2m not applied (interrupted), 1 field</summary>

      | Field | Before | After |
      | --- | --- | --- |
      | <code>teams</code> | <code>\\[{id: "Tm8Kq2Xa9Lp3"}\\]</code> | <code>\\[{id: "Tm8Kq2Xa9Lp3"}, {id: "Tm1Zz9Yy8Xx7"}\\]</code> |

      </details>
      "
    `)
  })

  it('escapes user data so that it cannot break the table, inject HTML or mention anyone', () => {
    const hostile = plan([
      change('target', 'T|1', 'a | b `code` <img src=x onerror=alert(1)>\n| fake | row |', [
        field('site.headers[X|Y]', 'x</code><script>', '**bold** [link](http://evil) @octocat', {}),
      ]),
    ])
    const text = renderPlan(hostile, 'markdown')
    expect(text).not.toMatch(/<(img|script)/)
    expect(text).not.toContain('\n| fake')
    expect(text).not.toContain('@octocat')
    // Each table line still has exactly its columns: every | inside a cell is escaped.
    for (const line of text.split('\n').filter((l) => l.startsWith('|'))) {
      const pipes = line.replace(/\\\|/g, '').match(/\|/g)!.length
      expect([4, 6]).toContain(pipes)
    }
    expect(text).toMatchInlineSnapshot(`
      "### scansync plan

      **Plan: 1 to change, 41 unchanged.**

      | | Kind | Id | Name | Fields changed |
      | --- | --- | --- | --- | --- |
      | ~ | target | <code>T\\|1</code> | a \\| b \\\`code\\\` &lt;img src=x onerror=alert(1)&gt;<br>\\| fake \\| row \\| | <code>site.headers\\[X\\|Y\\]</code> |

      <details><summary>~ target T|1 "a | b \`code\` &lt;img src=x onerror=alert(1)&gt;\\n| fake | row |" (1 field)</summary>

      | Field | Before | After |
      | --- | --- | --- |
      | <code>site.headers\\[X\\|Y\\]</code> | <code>"x&lt;/code&gt;&lt;script&gt;"</code> | <code>"\\*\\*bold\\*\\* \\[link\\](http://evil) @​octocat"</code> |

      </details>
      "
    `)
  })

  it('clips a huge value in a cell and says by how much', () => {
    const text = renderPlan(plan([change('target', 'T1', null, [field('site.desc', 'x'.repeat(5000), 'y')])]), 'markdown')
    expect(text).toContain('… (4,002 more characters)')
    expect(text.length).toBeLessThan(2_000)
  })

  describe('the comment limit', () => {
    it('keeps the whole plan when it fits', () => {
      const text = renderPlan(bigPlan(20), 'markdown')
      expect(sections(text)).toHaveLength(20)
      expect(text).not.toContain('not shown')
    })

    it('lists as much of the table as fits, and says how much was left out (several thousand changes)', () => {
      const text = renderPlan(bigPlan(3_000), 'markdown')
      expect(text.length).toBeLessThanOrEqual(65_536)
      expect(text.length).toBeGreaterThan(60_000)
      const listed = tableRows(text).length
      expect(listed).toBeGreaterThan(100)
      expect(sections(text)).toHaveLength(0)
      expect(text.trimEnd().split('\n').at(-1)).toBe(
        `_… ${(3_000 - listed).toLocaleString('en-US')} more changed resources not listed above, and no resource details shown ` +
          '(the comment limit is 65,536 characters); run `scansync plan` locally for the full plan._',
      )
      // The note is its own paragraph, not a row of the table.
      expect(text).toMatch(/\|\n\n_… /)
      // The listed rows are the first ones, in plan order.
      expect(tableRows(text).at(-1)).toContain(`T${String(listed - 1).padStart(6, '0')}`)
    })

    it('keeps the table and as many sections as fit when only the sections are too long', () => {
      const full = renderPlan(bigPlan(200), 'markdown')
      const limit = 50_000
      expect(full.length).toBeGreaterThan(limit)
      const text = renderPlan(bigPlan(200), 'markdown', { markdownLimit: limit })
      expect(text.length).toBeLessThanOrEqual(limit)
      expect(tableRows(text)).toHaveLength(200)
      const shown = sections(text).length
      expect(shown).toBeGreaterThan(0)
      expect(text.trimEnd().endsWith(`_… ${200 - shown} more resources not shown (the comment limit is 50,000 characters); run \`scansync plan\` locally for the full plan._`)).toBe(true)
      // As many as fit: one more section would not have.
      const next = full.split('\n\n<details>')[shown + 1]!
      expect(text.length + next.length + '\n\n<details>'.length).toBeGreaterThan(limit)
      // Sections are cut whole: every one opened is closed.
      expect(text.match(/<\/details>/g)).toHaveLength(shown)
    })

    it('drift: the note says to run scansync drift', () => {
      const text = renderPlan(bigPlan(5_000, 1), 'markdown', { mode: 'drift' })
      expect(text.length).toBeLessThanOrEqual(65_536)
      expect(text).toMatch(/not listed above, and no resource details shown \(the comment limit is 65,536 characters\); run `scansync drift` locally for the full report\._\n$/)
    })

    it('says when the whole table fits but no section does', () => {
      const text = renderPlan(plan([change('target', 'T1', null, [field('site.desc', 'x'.repeat(900), 'y')])]), 'markdown', { markdownLimit: 700 })
      expect(text.length).toBeLessThanOrEqual(700)
      expect(tableRows(text)).toHaveLength(1)
      expect(text).toContain('_… the details of 1 resource are not shown (the comment limit is 700 characters); run `scansync plan` locally for the full plan._')
    })

    it('stays under a small limit too', () => {
      for (const limit of [600, 1_000, 5_000]) {
        const text = renderPlan(bigPlan(50), 'markdown', { markdownLimit: limit })
        expect(text.length).toBeLessThanOrEqual(limit)
        expect(text).toContain('**Plan: 50 to change, 7 unchanged.**')
      }
    })

    // A review of the CI recipes (fifteenth round): the sections after the plan were added on top of a comment already at the limit.
    describe('with the sections after the plan', () => {
      const violations = (count: number): Violation[] =>
        Array.from({ length: count }, (_, i) => ({
          policy: 'team-label',
          level: 'warning' as const,
          kind: 'target' as const,
          id: `T${String(i).padStart(6, '0')}`,
          message: `every target names its team (${'x'.repeat(400)})`,
          where: { file: 'config/targets/many.yaml', line: i * 10 + 1, column: 5 },
          rule: { file: 'config/policies.yaml', line: 3, column: 5 },
        }))
      const unmanaged = (count: number) => Array.from({ length: count }, (_, i) => ({ kind: 'target' as const, id: `U${String(i).padStart(6, '0')}`, name: `Unmanaged site ${i}` }))

      it.each([0, 2_900])('a plan of 3,000 changes with %i policy violations stays under the limit, its violations section included', (count) => {
        const text = renderPlan(bigPlan(3_000), 'markdown', {}, violations(count))
        expect(text.length).toBeLessThanOrEqual(65_536)
        expect(text).toContain('### Policy violations')
        expect(text).toContain(count === 0 ? '**0 policy violations: 0 errors, 0 warnings.**' : `… and `)
      })

      it('drift --unmanaged of 3,000 changes and 3,000 resources no file declares stays under the limit', () => {
        const text = renderPlan({ ...bigPlan(3_000, 1), unmanaged: unmanaged(3_000) }, 'markdown', { mode: 'drift' })
        expect(text.length).toBeLessThanOrEqual(65_536)
        expect(text).toContain('3000 not declared in any file')
        expect(text).toMatch(/_… and \d+ more: run `scansync drift --unmanaged` locally for the whole list\._\n$/)
      })

      it('an apply report of 3,000 changes with 2,900 violations stays under the limit', () => {
        const report = { results: bigPlan(3_000).changes.map((c) => ({ ...c, result: 'applied' as const })), summary: { change: 3_000, unchanged: 0, applied: 3_000, failed: 0, not_applied: 0 } }
        const text = renderApplyReport(report, 'markdown', {}, violations(2_900))
        expect(text.length).toBeLessThanOrEqual(65_536)
        expect(text).toContain('### Policy violations')
      })

      it('errors come first: 30 long warnings then an error show the error row', () => {
        const list = [...violations(30), { ...violations(1)[0]!, id: 'ERR001', level: 'error' as const }]
        const text = renderPlan(bigPlan(5), 'markdown', {}, list)
        const rows = text.split('\n').filter((line) => /^\| [✗⚠] /.test(line))
        expect(rows[0]).toContain('✗ error')
        expect(rows[0]).toContain('ERR001')
        expect(rows.length).toBeLessThan(31)
      })

      it('a plan that fits keeps every row of a short violations list', () => {
        const text = renderPlan(bigPlan(5), 'markdown', {}, violations(3))
        expect(text.match(/\| ⚠ warning \|/g)).toHaveLength(3)
        expect(text).not.toContain('more (see')
      })
    })

    it('applies to the apply report too', () => {
      const text = renderApplyReport(
        { results: bigPlan(3_000).changes.map((c) => ({ ...c, result: 'applied' })), summary: { change: 3_000, unchanged: 0, applied: 3_000, failed: 0, not_applied: 0 } },
        'markdown',
      )
      expect(text.length).toBeLessThanOrEqual(65_536)
      expect(text).toContain('the text output (`--format text`) has the full report')
    })
  })
})
