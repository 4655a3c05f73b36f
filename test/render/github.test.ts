import { describe, expect, it } from 'vitest'
import { escapeData, escapeProperty } from '../../src/render/github.js'
import { renderApplyReport, renderPlan } from '../../src/render/index.js'
import { at, change, emptyPlan, field, plan, report, result, samplePlan, sampleReport, shop } from './builders.js'

describe('github format', () => {
  it('plan: a warning at the YAML line of each field (or of its resource), then the summary', () => {
    expect(renderPlan(samplePlan(), 'github')).toMatchInlineSnapshot(`
      "::warning file=config/targets/shop.yaml,line=4,col=13,title=scansync plan%3A target 2DZkoZH8WMEM "Shop (production)"::site.name: "Shop" -> "Shop (production)"
      ::warning file=config/targets/shop.yaml,line=9,col=19,title=scansync plan%3A target 2DZkoZH8WMEM "Shop (production)"::site.basic_auth.password: (sensitive) -> (sensitive) (changed in YAML)
      ::warning file=config/targets/shop.yaml,line=11,col=13,title=scansync plan%3A target 2DZkoZH8WMEM "Shop (production)"::labels: ["production"] -> ["production", {name: "pci", color: "#d93f0b"}]
      ::warning file=config/targets/shop.yaml,line=5,col=5,title=scansync plan%3A target 2DZkoZH8WMEM "Shop (production)"::site.headers[X-Old]: {name: "X-Old", value: "1"} -> (removed)
      ::warning file=config/targets/shop.yaml,line=20,col=21,title=scansync plan%3A target 2DZkoZH8WMEM "Shop (production)"::scanning_agent: {id: "3kLx8Qy7Pb2m"} -> null
      ::warning file=config/assets.yaml,line=2,col=5,title=scansync plan%3A asset 9fGh2Kd8LmQz "legacy.example.com"::state: "ACTIVE" -> "ARCHIVED"
      ::warning file=config/assets.yaml,line=2,col=5,title=scansync plan%3A asset 9fGh2Kd8LmQz "legacy.example.com"::comment: (none) -> "Decommissioned in October"
      ::warning title=scansync plan%3A agent 3kLx8Qy7Pb2m::teams: [{id: "Tm8Kq2Xa9Lp3"}] -> [{id: "Tm8Kq2Xa9Lp3"}, {id: "Tm1Zz9Yy8Xx7"}]
      Plan: 3 to change, 41 unchanged.
      "
    `)
  })

  it('drift: errors, so that the check fails and the lines are annotated', () => {
    const text = renderPlan(samplePlan(), 'github', { mode: 'drift' })
    const annotations = text.split('\n').filter((line) => line.startsWith('::'))
    expect(annotations).toHaveLength(8)
    for (const line of annotations) expect(line).toMatch(/^::error (file=[^,]+,line=\d+,col=\d+,)?title=scansync drift%3A /)
    expect(text.trimEnd().split('\n').at(-1)).toBe('Drift: 3 resources differ from the configuration, 41 in sync.')
  })

  it('no changes: only the summary', () => {
    expect(renderPlan(emptyPlan(), 'github')).toBe('No changes. Plan: 0 to change, 44 unchanged.\n')
  })

  it('apply report: failures as errors, not applied and service warnings as warnings, applied as plain lines', () => {
    expect(renderApplyReport(sampleReport(), 'github')).toMatchInlineSnapshot(`
      "✓ target 2DZkoZH8WMEM "Shop (production)" applied
      ::warning file=config/targets/shop.yaml,line=2,col=5,title=scansync apply%3A target 2DZkoZH8WMEM "Shop (production)"::site.desc was accepted but not stored by the service
      ::error file=config/assets.yaml,line=2,col=5,title=scansync apply%3A asset 9fGh2Kd8LmQz "legacy.example.com"::failed: 400 Bad Request: state: "ARCHIVED" is not a valid choice.%0Aowners: unknown team
      ::warning title=scansync apply%3A agent 3kLx8Qy7Pb2m::not applied (interrupted)

      Needs attention (3 of 3 changes):
        ✗ config/assets.yaml:2:5: asset 9fGh2Kd8LmQz "legacy.example.com" failed: 400 Bad Request: state: "ARCHIVED" is not a valid choice. …
        - agent 3kLx8Qy7Pb2m not applied (interrupted)
        ✓ config/targets/shop.yaml:2:5: target 2DZkoZH8WMEM "Shop (production)" applied, with a warning: site.desc was accepted but not stored by the service

      Apply: 1 applied, 1 failed, 1 not applied, 41 unchanged.
      "
    `)
  })

  it('escapes the message and the properties as the runner expects', () => {
    expect(escapeData('100% done\r\nnext: a, b')).toBe('100%25 done%0D%0Anext: a, b')
    expect(escapeProperty('dir, with: colon%\n')).toBe('dir%2C with%3A colon%25%0A')
  })

  it('user data cannot end the annotation or start a command of its own', () => {
    const hostile = plan([
      change('target', 'T1', 'a,b: c', [field('site.desc', 'x', 'line\n::error::forged\r\n%0A', { source: at('odd, dir/a:b.yaml', 3, 9) })]),
    ])
    const text = renderPlan(hostile, 'github')
    expect(text.split('\n')).toHaveLength(3) // the annotation, the summary, the final newline
    expect(text).toMatchInlineSnapshot(`
      "::warning file=odd%2C dir/a%3Ab.yaml,line=3,col=9,title=scansync plan%3A target T1 "a%2Cb%3A c"::site.desc: "x" -> "line\\n::error::forged\\r\\n%250A"
      Plan: 1 to change, 41 unchanged.
      "
    `)
  })

  it('an apply failure without any source is an unplaced error', () => {
    const bare = { ...shop, source: undefined, fields: shop.fields.map(({ source: _, ...f }) => f) }
    expect(renderApplyReport(report([result(bare, 'failed', { error: 'boom' })], 0), 'github').split('\n')[0]).toBe(
      '::error title=scansync apply%3A target 2DZkoZH8WMEM "Shop (production)"::failed: boom',
    )
  })
})
