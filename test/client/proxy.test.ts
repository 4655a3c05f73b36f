import { describe, expect, it } from 'vitest'
import { describeNetworkError, isRetryableError, proxyRefusal } from '../../src/client/retry-policy.js'
import { bypassed, proxyFor, proxyLoginWithoutPassword, proxySecrets } from '../../src/client/proxy.js'
import { UsageError } from '../../src/client/errors.js'

const SERVICE = new URL('https://api.example.com/api/v1')

describe('the proxy of the service, from the environment', () => {
  it('takes the variable of the service URL’s scheme, the lower-case name first, then ALL_PROXY', () => {
    expect(proxyFor(SERVICE, {})).toBeUndefined()
    expect(proxyFor(SERVICE, { HTTPS_PROXY: 'http://proxy.corp:3128' })?.shown).toBe('proxy.corp:3128')
    expect(proxyFor(SERVICE, { HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2' })).toMatchObject({ shown: 'lower:2', variable: 'https_proxy' })
    // HTTP_PROXY is for http:// services only, as in curl.
    expect(proxyFor(SERVICE, { HTTP_PROXY: 'http://proxy.corp:3128' })).toBeUndefined()
    expect(proxyFor(new URL('http://api.example.com/'), { HTTP_PROXY: 'http://proxy.corp:3128' })?.variable).toBe('HTTP_PROXY')
    expect(proxyFor(SERVICE, { ALL_PROXY: 'http://all:8080' })?.variable).toBe('ALL_PROXY')
    expect(proxyFor(SERVICE, { HTTPS_PROXY: '', ALL_PROXY: 'http://all:8080' })?.variable).toBe('ALL_PROXY')
    expect(proxyFor(SERVICE, { HTTPS_PROXY: '   ' })).toBeUndefined()
  })

  it('reads a proxy without a scheme as http://, and takes https:// proxies', () => {
    expect(proxyFor(SERVICE, { HTTPS_PROXY: 'proxy.corp:3128' })?.url.href).toBe('http://proxy.corp:3128/')
    expect(proxyFor(SERVICE, { HTTPS_PROXY: 'https://proxy.corp' })?.url.protocol).toBe('https:')
  })

  it('never puts a loopback service behind a proxy', () => {
    for (const url of ['http://127.0.0.1:4010/api/v1', 'http://localhost:4010/', 'http://[::1]:4010/', 'http://127.9.9.9/']) {
      expect(proxyFor(new URL(url), { HTTP_PROXY: 'http://proxy.corp:3128', ALL_PROXY: 'http://proxy.corp:3128' })).toBeUndefined()
    }
  })

  it('refuses a proxy it cannot use, naming the variable and never the value', () => {
    const refused = (value: string) => {
      try {
        proxyFor(SERVICE, { HTTPS_PROXY: value })
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError)
        return (error as Error).message
      }
      throw new Error(`${value} was taken`)
    }
    expect(refused('socks5://user:S3cret-pw@proxy:1080')).toBe(
      "HTTPS_PROXY names a socks5 proxy: scansync goes through http:// and https:// proxies only (set NO_PROXY to the service's host to connect directly)",
    )
    expect(refused('http://user:S3cret-pw@[bad')).toBe('HTTPS_PROXY is not a valid proxy URL: expected something like http://proxy.example.com:3128')
  })

  it('keeps the proxy’s password for the redaction, as written and decoded, or its user name where that is the only credential', () => {
    expect(proxySecrets(proxyFor(SERVICE, { HTTPS_PROXY: 'http://me:p%40ss-word-1@proxy:3128' }))).toEqual(['p%40ss-word-1', 'p@ss-word-1'])
    expect(proxySecrets(proxyFor(SERVICE, { HTTPS_PROXY: 'http://proxy:3128' }))).toEqual([])
    expect(proxySecrets(proxyFor(SERVICE, { HTTPS_PROXY: 'http://t0ken%2Bx@proxy:3128' }))).toEqual(['t0ken%2Bx', 't0ken+x'])
  })

  it('logs in with a user name alone (a token-style login), which undici would not send', () => {
    // undici sends Proxy-Authorization only for a user name and a password together: such a proxy answered 407, with no word why.
    expect(proxyLoginWithoutPassword(proxyFor(SERVICE, { HTTPS_PROXY: 'http://t0ken%2Bx@proxy:3128' }))).toBe(`Basic ${Buffer.from('t0ken+x:').toString('base64')}`)
    expect(proxyLoginWithoutPassword(proxyFor(SERVICE, { HTTPS_PROXY: 'http://me:pw@proxy:3128' }))).toBeUndefined()
    expect(proxyLoginWithoutPassword(proxyFor(SERVICE, { HTTPS_PROXY: 'http://proxy:3128' }))).toBeUndefined()
  })
})

describe('NO_PROXY', () => {
  const cases: Array<[string, string, boolean]> = [
    ['https://api.example.com/', '*', true],
    ['https://api.example.com/', 'api.example.com', true],
    ['https://API.Example.COM/', 'api.example.com', true],
    ['https://api.example.com/', 'API.EXAMPLE.COM', true],
    ['https://api.example.com./', 'api.example.com', true],
    ['https://api.example.com/', 'example.com', true],
    ['https://api.example.com/', '.example.com', true],
    ['https://api.example.com/', '*.example.com', true],
    ['https://example.com/', '*.example.com', false],
    ['https://example.com/', '.example.com', true],
    ['https://notexample.com/', 'example.com', false],
    ['https://api.example.com/', 'other.org, example.com', true],
    ['https://api.example.com/', 'other.org example.com', true],
    ['https://api.example.com/', 'example.com:443', true],
    ['https://api.example.com/', 'example.com:8443', false],
    ['https://api.example.com:8443/', 'example.com:8443', true],
    ['http://api.example.com/', 'api.example.com:80', true],
    ['https://10.1.2.3/', '10.1.2.3', true],
    ['https://[2001:db8::1]/', '2001:db8::1', true],
    ['https://[2001:db8::1]/', '[2001:db8::1]:443', true],
    ['https://[2001:db8::1]/', '[2001:db8::1]:8443', false],
    // Address ranges (curl 7.86, Go), for a service named by its address; a name is never in a range.
    ['https://10.1.2.3/', '10.0.0.0/8', true],
    ['https://10.1.2.3/', '192.168.0.0/16', false],
    ['https://192.168.7.9:8443/', '192.168.0.0/16', true],
    ['https://[fd00::5]/', 'fd00::/8', true],
    ['https://[2001:db8::1]/', 'fd00::/8', false],
    ['https://10.1.2.3/', '10.0.0.0/33', false],
    ['https://10.1.2.3/', '10.0.0.0/x', false],
    ['https://api.example.com/', '10.0.0.0/8', false],
    ['https://api.example.com/', '', false],
    ['https://api.example.com/', ',,', false],
  ]
  it.each(cases)('%s with NO_PROXY=%j connects directly: %s', (url, noProxy, direct) => {
    expect(bypassed(new URL(url), noProxy)).toBe(direct)
    const proxy = proxyFor(new URL(url), { ALL_PROXY: 'http://proxy.corp:3128', no_proxy: noProxy })
    expect(proxy === undefined).toBe(direct)
  })
})

describe('a proxy refusing the tunnel', () => {
  // undici 7's ProxyAgent gives this error, with these words and no code of its own.
  const refusal = (status: number) => Object.assign(new Error(`Proxy response (${status}) !== 200 when HTTP Tunneling`), { code: 'UND_ERR_ABORTED' })

  it('is told in words, and retried only where the proxy may answer otherwise next time', () => {
    expect(proxyRefusal(refusal(407))).toBe(407)
    expect(describeNetworkError(refusal(403))).toBe('the proxy refused the connection with HTTP 403 (forbidden)')
    expect(describeNetworkError(refusal(418))).toBe('the proxy refused the connection with HTTP 418')
    expect(isRetryableError(refusal(407))).toBe(false)
    expect(isRetryableError(refusal(403))).toBe(false)
    expect(isRetryableError(refusal(502))).toBe(true)
    expect(proxyRefusal(new Error('Proxy response (407) !== 200 when HTTP Tunneling, and more'))).toBeUndefined()
  })

  it('matches what the installed undici says', async () => {
    const source = (await import('node:fs')).readFileSync(new URL('../../node_modules/undici/lib/dispatcher/proxy-agent.js', import.meta.url), 'utf8')
    expect(source).toContain('new RequestAbortedError(`Proxy response (${statusCode}) !== 200 when HTTP Tunneling`)')
  })
})
