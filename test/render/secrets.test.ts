import { describe, expect, it } from 'vitest'
import { withRedaction } from '../../src/core/io.js'
import { SENSITIVE } from '../../src/plan/model.js'
import { applyDocument, FORMATS, planDocument, planRows, renderApplyReport, renderPlan, reportRows, type Mode } from '../../src/render/index.js'
import { apply, captureIo, emulator, tempdir } from '../e2e/helpers.js'
import { startProxy } from '../e2e/proxy.js'
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

/** The apply report of that plan; `echo`: the service quoted the values back in its error and a warning. */
const leakyReport = (echo = true) => {
  const [target, asset] = leaky().changes
  const said = echo
    ? { error: `400: password "${SECRET}-new" is too weak`, warnings: [`header value ${OTHER} ignored`] }
    : { error: '400: password is too weak', warnings: ['header value ignored'] }
  return report([result(target!, 'failed', said), result(asset!, 'applied')])
}

describe('secrets in the renderers: sensitive fields are masked where the rows are built', () => {
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
    // The fields of a report are masked too; text the service wrote is taken care of at the output step (below).
    const text = renderApplyReport(leakyReport(false), format)
    expect(text).not.toContain(SECRET)
    expect(text).not.toContain(OTHER)
  })

  it('nor in the documents and rows that other code may serialise', () => {
    for (const value of [planDocument(leaky()), applyDocument(leakyReport(false)), planRows(leaky()), reportRows(leakyReport(false))]) {
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
})

describe('secrets in what the service wrote: taken out at the output step (core/io.ts withRedaction)', () => {
  it.each(FORMATS)('the error and warnings of an apply report say (sensitive) where the secret was, written through a redacted Io (%s)', (format) => {
    const captured = captureIo()
    const io = withRedaction(captured)
    io.redaction.add([SECRET, `${SECRET}-new`, OTHER])
    io.stdout.write(renderApplyReport(leakyReport(), format))
    const out = captured.out()
    expect(out).not.toContain(SECRET)
    expect(out).not.toContain(OTHER)
    expect(out).toContain(SENSITIVE)
    if (format === 'text') {
      expect(out).toContain('failed: 400: password "(sensitive)" is too weak')
      expect(out).toContain('warning: header value (sensitive) ignored')
    }
  })

  it.each(FORMATS)('an apply whose service quotes the secrets it was sent: no value on stdout or stderr, (sensitive) in its place (%s)', { timeout: 30_000 }, async (format) => {
    const em = await emulator()
    const proxy = await startProxy(em.url, async (request, forward) => {
      if (request.method === 'GET') return forward()
      return { status: 400, body: JSON.stringify({ site: { basic_auth: { password: [`password "${SECRET}-new" is too weak`] }, headers: [`header value ${OTHER} ignored`] } }) }
    })
    const dir = tempdir({
      'shop.yaml': [
        'targets:',
        '  - id: 2DZkoZH8WMEM',
        '    site:',
        '      basic_auth: {username: scanner, password: "${SHOP_BASIC_AUTH_PASSWORD}", password_is_sensitive: true}',
        '      headers: [{name: X-Api-Key, value: "${SHOP_API_KEY}"}]',
        '',
      ].join('\n'),
    })
    const run = await apply(em, dir, { format }, { SHOP_BASIC_AUTH_PASSWORD: `${SECRET}-new`, SHOP_API_KEY: OTHER, SCANSYNC_API_URL: proxy.url })
    expect(run.code).toBe(1)
    for (const text of [run.out, run.err]) {
      expect(text).not.toContain(SECRET)
      expect(text).not.toContain(OTHER)
    }
    // JSON escapes the quotes the service wrote around the value.
    expect(run.out).toContain(format === 'json' ? 'password \\"(sensitive)\\" is too weak' : 'password "(sensitive)" is too weak')
    expect(run.out).toContain('header value (sensitive) ignored')
  })
})
