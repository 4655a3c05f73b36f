// Review round 25 (attack this round's own fixes): a proxy URL whose password holds a % not
// followed by two hexadecimal digits (HTTPS_PROXY=http://ci:50%off…@proxy:3128, written as the
// password is) ended plan with "unexpected failure: URI malformed … please report it", undici
// decoding the credentials. It is refused as the other unusable proxy URLs are, naming the
// variable and never the value; nothing is sent.
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleConfig, TOKEN } from '../e2e/helpers.js'

const PASSWORD = 'Fifty%offPr0xy-r25'

describe('a proxy URL whose password holds a stray %', () => {
  it.each([
    ['password', `http://ci:${PASSWORD}@127.0.0.1:9`],
    ['user name', `http://ci${PASSWORD}:x@127.0.0.1:9`],
  ])('is refused with the variable named, never the value (%s)', async (_where, proxy) => {
    const em = await emulator()
    const service = new URL(em.url)
    service.hostname = 'api.example.test'
    const run = await cli(em, exampleConfig(), ['plan', '--insecure-http'], { SCANSYNC_API_URL: service.href, HTTP_PROXY: proxy })
    expect(run.code).not.toBe(0)
    expect(run.stderr).toContain('HTTP_PROXY is not a valid proxy URL')
    expect(run.stderr).not.toContain('unexpected failure')
    expect(run.stdout + run.stderr).not.toContain(PASSWORD)
    expect(run.stdout + run.stderr).not.toContain(TOKEN)
  })

  it('a % written as %25 is taken', async () => {
    const { proxyFor } = await import('../../src/client/proxy.js')
    expect(proxyFor(new URL('https://api.example.com/'), { HTTPS_PROXY: 'http://ci:50%25off@proxy.corp:3128' })?.url.password).toBe('50%25off')
  })
})
