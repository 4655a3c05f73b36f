// The token or a declared secret quoted in another letter case: by our own doing (the URL parser
// lower-cases the host of a redirect's location, which the error names by its origin) or by the
// service's (words upper-cased). Both were printed: the redaction knew each only as given.
import { describe, expect, it } from 'vitest'
import { Redaction } from '../../src/core/redaction.js'
import { cli, emulator, exampleConfig, EXAMPLE_SECRETS, TOKEN } from '../e2e/helpers.js'
import { startProxy } from '../e2e/proxy.js'

const PASSWORD = EXAMPLE_SECRETS.SHOP_BASIC_AUTH_PASSWORD

describe('a secret quoted lower- or upper-cased', () => {
  it('a redirect to a host naming the token, and a 500 upper-casing the token and a password: neither printed, in any format', { timeout: 60_000 }, async () => {
    const em = await emulator()
    const proxy = await startProxy(em.url, async (request, forward) => {
      if (request.method !== 'GET') return forward()
      if (request.path.startsWith('/targets/2DZkoZH8WMEM/')) return { status: 302, body: '', headers: { location: `https://${TOKEN}.example.net/` } }
      if (request.path.startsWith('/scanning-agents/3kLx8Qy7Pb2m/')) return { status: 500, body: JSON.stringify({ detail: `token ${TOKEN.toUpperCase()}, password ${PASSWORD.toUpperCase()}` }) }
      return forward()
    })
    const dir = exampleConfig()
    for (const format of ['text', 'json', 'github', 'markdown']) {
      for (const id of ['2DZkoZH8WMEM', '3kLx8Qy7Pb2m']) {
        const run = await cli(em, dir, ['plan', '--id', id, '--format', format, '--debug'], { ...EXAMPLE_SECRETS, SCANSYNC_API_URL: proxy.url, SCANSYNC_MAX_ATTEMPTS: '1' })
        expect(run.code).toBe(1)
        const printed = (run.stdout + run.stderr).toLowerCase()
        expect(run.stderr).toMatch(id === '2DZkoZH8WMEM' ? /redirect \(HTTP 302\) to https:\/\/\(redacted\)\.example\.net/ : /the service failed \(HTTP 500\): token \(redacted\), password \(sensitive\)/)
        expect(printed).not.toContain(TOKEN.toLowerCase())
        expect(printed).not.toContain(PASSWORD.toLowerCase())
      }
    }
  })

  it('the output step replaces the lower- and upper-cased forms, in every written form', () => {
    const redaction = new Redaction('Tok-Ab12Cd34')
    redaction.add(['Pässword-Xy9'])
    expect(redaction.output('tok-ab12cd34 TOK-AB12CD34 pässword-xy9 PÄSSWORD-XY9 P\\u00c4SSWORD-XY9')).toBe('(redacted) (redacted) (sensitive) (sensitive) (sensitive)')
  })
})
