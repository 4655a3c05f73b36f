import { describe, expect, it } from 'vitest'
import { SENSITIVE } from '../../src/plan/model.js'
import { applyDocument, FORMATS, planDocument, planRows, renderApplyReport, renderPlan, type Mode } from '../../src/render/index.js'
import { archived, change, field, plan, report, result } from './builders.js'

const SECRET = 'hunter2-TOP-SECRET-7f3a'
const OTHER = 'Sup3r-Other-Secret'

// A bug upstream: sensitive fields that carry their real values instead of SENSITIVE.
const leaky = () =>
  plan([
    change('target', '2DZkoZH8WMEM', 'Shop', [
      field('site.name', 'Shop', 'Shop 2'),
      field('site.basic_auth.password', SECRET, `${SECRET}-new`, { sensitive: true, reason: 'changed in YAML' }),
      field('site.headers[X-Api-Key]', { name: 'X-Api-Key', value: OTHER }, undefined, { sensitive: true }),
      field('site.otp_secret', undefined, SECRET, { sensitive: true, reason: 'not yet tracked' }),
    ]),
    archived,
  ])

const leakyReport = () => {
  const [target, asset] = leaky().changes
  return report([
    // …and the service echoed the value back in its error and a warning.
    result(target!, 'failed', { error: `400: password "${SECRET}-new" is too weak`, warnings: [`header value ${OTHER} ignored`] }),
    result(asset!, 'applied'),
  ])
}

describe('secrets', () => {
  const modes: Mode[] = ['plan', 'drift', 'apply']

  it.each(FORMATS)('a secret value that reached the plan appears nowhere in the %s format', (format) => {
    for (const mode of modes) {
      for (const color of [false, true]) {
        const text = renderPlan(leaky(), format, { mode, color })
        expect(text).not.toContain(SECRET)
        expect(text).not.toContain(OTHER)
        expect(text).toContain(SENSITIVE)
      }
    }
    const text = renderApplyReport(leakyReport(), format)
    expect(text).not.toContain(SECRET)
    expect(text).not.toContain(OTHER)
  })

  it('nor in the documents and rows that other code may serialise', () => {
    for (const value of [planDocument(leaky()), applyDocument(leakyReport()), planRows(leaky())]) {
      const json = JSON.stringify(value)
      expect(json).not.toContain(SECRET)
      expect(json).not.toContain(OTHER)
    }
  })

  it('a sensitive field prints (sensitive) on both sides, with its reason', () => {
    expect(renderPlan(leaky(), 'text')).toContain('    site.basic_auth.password: (sensitive) -> (sensitive) (changed in YAML)\n')
    expect(renderPlan(leaky(), 'text')).toContain('    site.otp_secret: (sensitive) -> (sensitive) (not yet tracked)\n')
    const fields = planDocument(leaky()).changes[0]!.fields
    expect(fields.filter((f) => f.sensitive).map(({ before, after }) => [before, after])).toEqual([
      [SENSITIVE, SENSITIVE],
      [SENSITIVE, SENSITIVE],
      [SENSITIVE, SENSITIVE],
    ])
  })

  it('the error and warnings of an apply report say (sensitive) where the secret was', () => {
    expect(renderApplyReport(leakyReport(), 'text')).toContain('failed: 400: password "(sensitive)" is too weak')
    expect(renderApplyReport(leakyReport(), 'text')).toContain('warning: header value (sensitive) ignored')
  })
})
