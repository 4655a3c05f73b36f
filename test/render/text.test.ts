import { describe, expect, it } from 'vitest'
import { renderApplyReport, renderPlan } from '../../src/render/index.js'
import { change, emptyPlan, field, plan, report, result, samplePlan, sampleReport, shop } from './builders.js'

describe('text format', () => {
  it('plan: a block per resource, a line per field, then the summary', () => {
    expect(renderPlan(samplePlan(), 'text')).toMatchInlineSnapshot(`
      "~ target 2DZkoZH8WMEM "Shop (production)"
          site.name: "Shop" -> "Shop (production)"
          site.basic_auth.password: (sensitive) -> (sensitive) (changed in YAML)
          labels: ["production"] -> ["production", {name: "pci", color: "#d93f0b"}]
          site.headers[X-Old]: {name: "X-Old", value: "1"} -> (removed)
          scanning_agent: {id: "3kLx8Qy7Pb2m"} -> null

      ~ asset 9fGh2Kd8LmQz "legacy.example.com"
          state: "ACTIVE" -> "ARCHIVED"
          comment: (none) -> "Decommissioned in October"

      ~ agent 3kLx8Qy7Pb2m
          teams: [{id: "Tm8Kq2Xa9Lp3"}] -> [{id: "Tm8Kq2Xa9Lp3"}, {id: "Tm1Zz9Yy8Xx7"}]

      Plan: 3 to change, 41 unchanged.
      "
    `)
  })

  it('drift: marks each resource as drifted and words the summary as drift', () => {
    expect(renderPlan(samplePlan(), 'text', { mode: 'drift' })).toMatchInlineSnapshot(`
      "~ target 2DZkoZH8WMEM "Shop (production)" (drifted)
          site.name: "Shop" -> "Shop (production)"
          site.basic_auth.password: (sensitive) -> (sensitive) (changed in YAML)
          labels: ["production"] -> ["production", {name: "pci", color: "#d93f0b"}]
          site.headers[X-Old]: {name: "X-Old", value: "1"} -> (removed)
          scanning_agent: {id: "3kLx8Qy7Pb2m"} -> null

      ~ asset 9fGh2Kd8LmQz "legacy.example.com" (drifted)
          state: "ACTIVE" -> "ARCHIVED"
          comment: (none) -> "Decommissioned in October"

      ~ agent 3kLx8Qy7Pb2m (drifted)
          teams: [{id: "Tm8Kq2Xa9Lp3"}] -> [{id: "Tm8Kq2Xa9Lp3"}, {id: "Tm1Zz9Yy8Xx7"}]

      Drift: 3 resources differ from the configuration, 41 in sync.
      "
    `)
  })

  it('no changes: says so on the one summary line, whose greppable part is kept whole', () => {
    expect(renderPlan(emptyPlan(), 'text')).toMatchInlineSnapshot(`
      "No changes. Plan: 0 to change, 44 unchanged.
      "
    `)
    expect(renderPlan(emptyPlan(1), 'text', { mode: 'drift' })).toMatchInlineSnapshot(`
      "No drift. Drift: 0 resources differ from the configuration, 1 in sync.
      "
    `)
    expect(renderPlan(emptyPlan(0), 'text')).toMatchInlineSnapshot(`
      "No changes. Plan: 0 to change, 0 unchanged.
      "
    `)
  })

  it('drift with one resource uses the singular', () => {
    expect(renderPlan(plan([shop], 1), 'text', { mode: 'drift' }).trimEnd().split('\n').at(-1)).toBe(
      'Drift: 1 resource differs from the configuration, 1 in sync.',
    )
  })

  it('apply report: an outcome line per change, warnings beneath, then the summary', () => {
    expect(renderApplyReport(sampleReport(), 'text')).toMatchInlineSnapshot(`
      "✓ target 2DZkoZH8WMEM "Shop (production)" applied
          warning: site.desc was accepted but not stored by the service
      ✗ asset 9fGh2Kd8LmQz "legacy.example.com" failed: 400 Bad Request: state: "ARCHIVED" is not a valid choice.
          owners: unknown team
      - agent 3kLx8Qy7Pb2m not applied (interrupted)

      Needs attention (3 of 3 changes):
        ✗ config/assets.yaml:2:5: asset 9fGh2Kd8LmQz "legacy.example.com" failed: 400 Bad Request: state: "ARCHIVED" is not a valid choice. …
        - agent 3kLx8Qy7Pb2m not applied (interrupted)
        ✓ config/targets/shop.yaml:2:5: target 2DZkoZH8WMEM "Shop (production)" applied, with a warning: site.desc was accepted but not stored by the service

      Apply: 1 applied, 1 failed, 1 not applied, 41 unchanged.
      "
    `)
  })

  it('apply report with nothing to do', () => {
    expect(renderApplyReport(report([], 44), 'text')).toMatchInlineSnapshot(`
      "No changes. Apply: 0 applied, 0 failed, 0 not applied, 44 unchanged.
      "
    `)
  })

  it('colours only when asked: header yellow, before red, after green, summary bold', () => {
    // ANSI codes shown as <n>: 33 yellow, 31 red, 32 green, 1 bold, 39/22 their ends.
    const codes = (text: string) => text.replace(/\u001b\[(\d+)m/g, '<$1>')
    const one = plan([change('target', 'T1', 'A', [field('site.name', 'Old', 'New')])], 0)
    expect(renderPlan(one, 'text', { color: false })).not.toContain('\u001b')
    expect(codes(renderPlan(one, 'text', { color: true }))).toMatchInlineSnapshot(`
      "<33>~ target T1 "A"<39>
          site.name: <31>"Old"<39> -> <32>"New"<39>

      <1>Plan: 1 to change, 0 unchanged.<22>
      "
    `)
    expect(codes(renderApplyReport(report([result(shop, 'failed', { error: 'boom' })], 0), 'text', { color: true }))).toMatchInlineSnapshot(`
      "<31>✗<39> target 2DZkoZH8WMEM "Shop (production)" failed: boom

      <1>Apply: 0 applied, 1 failed, 0 not applied, 0 unchanged.<22>
      "
    `)
  })

  it('prints user text from the service without its control characters', () => {
    const nasty = plan([change('target', 'T1', 'evil\u001b]0;title\u0007', [field('site.desc', 'a\u001b[31m', 'b')])])
    expect(renderPlan(nasty, 'text')).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/)
    const failed = report([result(shop, 'failed', { error: 'line one\r\nline \u001b[2Jtwo' })], 0)
    expect(renderApplyReport(failed, 'text')).toContain('failed: line one\n    line \\u001b[2Jtwo')
  })
})
