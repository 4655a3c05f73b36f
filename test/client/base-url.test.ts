import { describe, expect, it } from 'vitest'

import { buildRequestTarget, checkBaseUrl, checkRequestPath, createClient, UsageError } from '../../src/client/index.js'

function refusal(url: string, options: { insecureHttp?: boolean } = {}): UsageError {
  try {
    checkBaseUrl(url, options)
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    return error as UsageError
  }
  throw new Error(`${url} was accepted`)
}

describe('checkBaseUrl', () => {
  it('accepts https anywhere', () => {
    expect(checkBaseUrl('https://api.example.com/api/v1', {}).href).toBe('https://api.example.com/api/v1')
    expect(checkBaseUrl('https://api.example.com/api/v1/', {}).pathname).toBe('/api/v1/')
  })

  it.each(['http://127.0.0.1:8080', 'http://127.0.0.5', 'http://127.255.0.9:1/api', 'http://[::1]:9000', 'http://localhost:3000', 'http://LOCALHOST', 'http://127.1', 'http://127.0.0.1.:8080'])(
    'accepts http on the loopback host %s',
    (url) => {
      expect(checkBaseUrl(url, {}).protocol).toBe('http:')
    },
  )

  it.each(['http://example.com', 'http://128.0.0.1', 'http://10.0.0.1', 'http://127.0.0.1.example.com', 'http://localhost.example.com', 'http://[::2]', 'http://localhost.', 'http://LOCALHOST.:8080/api'])(
    'refuses http to %s with a way out',
    (url) => {
      const error = refusal(url)
      expect(error.message).toContain('use https:// or --insecure-http')
    },
  )

  it('allows http to any host with insecureHttp', () => {
    expect(checkBaseUrl('http://example.com/api/v1', { insecureHttp: true }).host).toBe('example.com')
  })

  it('refuses credentials in the URL without echoing them', () => {
    for (const url of ['https://alice:hunter2pass@api.example.com/api/v1', 'https://hunter2pass@api.example.com', 'http://u:hunter2pass@127.0.0.1']) {
      const error = refusal(url, { insecureHttp: true })
      expect(error.message).toContain('put the token in SCANSYNC_API_TOKEN, not in the URL')
      expect(error.message).not.toContain('hunter2pass')
      expect(error.message).not.toContain('alice')
    }
  })

  it('refuses other schemes', () => {
    expect(refusal('ftp://example.com/').message).toContain('not ftp:')
    expect(refusal('file:///etc/passwd', { insecureHttp: true }).message).toContain('https://')
    expect(refusal('ws://127.0.0.1').message).toContain('https://')
  })

  it('says a URL written without its scheme has none, instead of taking the host for one', () => {
    // `localhost:8080` parses as the scheme "localhost:": the message read "…, not localhost://".
    for (const url of ['localhost:8080', 'api.example.com:443/api/v1', '127.0.0.1:4010', 'api.example.com/api/v1', 'api.example.com']) {
      const error = refusal(url)
      expect(error.message).toBe('the service URL has no scheme: write it with https:// (or http:// for a local emulator), as in https://api.example.com/api/v1')
    }
  })

  it('refuses what is not a URL without repeating it', () => {
    const error = refusal('not a url with secret-ish-text')
    expect(error.message).toContain('not a valid URL')
    expect(error.message).not.toContain('secret-ish-text')
  })

  it('refuses a query or a fragment', () => {
    expect(refusal('https://api.example.com/api/v1?x=1').message).toContain('query')
    expect(refusal('https://api.example.com/api/v1#x').message).toContain('fragment')
  })

  it('is applied by createClient', () => {
    expect(() => createClient({ baseUrl: 'http://example.com', token: 't0ken', userAgent: 'scansync/0' })).toThrow(UsageError)
    expect(() => createClient({ baseUrl: 'http://example.com', token: 't0ken', userAgent: 'scansync/0', insecureHttp: true }).close()).not.toThrow()
  })
})

describe('request paths', () => {
  it('appends paths to the base path without doubling slashes', () => {
    expect(buildRequestTarget(new URL('https://h/api/v1'), '/targets/x/')).toBe('/api/v1/targets/x/')
    expect(buildRequestTarget(new URL('https://h/api/v1/'), '/targets/x/')).toBe('/api/v1/targets/x/')
    expect(buildRequestTarget(new URL('http://127.0.0.1:9'), 'targets/')).toBe('/targets/')
    expect(buildRequestTarget(new URL('https://h/api'), '/targets/', { page: 2, length: 100 })).toBe('/api/targets/?page=2&length=100')
  })

  it.each(['/targets/../users/', '/targets/a?b=1', '/targets/a#x', '/targets/%2e%2e/', '//evil.example.com/x', '/a b/'])('refuses %s', (path) => {
    expect(() => checkRequestPath(path)).toThrow(UsageError)
  })

  it('accepts encoded ids', () => {
    expect(checkRequestPath(`/targets/${encodeURIComponent('a/b?c')}/`)).toBe('/targets/a%2Fb%3Fc/')
  })
})

describe('client options', () => {
  it('refuses a missing token or one that cannot be a header, without echoing it', () => {
    expect(() => createClient({ baseUrl: 'https://h', token: '', userAgent: 'x' })).toThrow('SCANSYNC_API_TOKEN')
    try {
      createClient({ baseUrl: 'https://h', token: 'abc\ndef-secret', userAgent: 'x' })
      throw new Error('accepted')
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError)
      expect((error as Error).message).not.toContain('def-secret')
    }
  })

  it('refuses a parallelism below 1', () => {
    expect(() => createClient({ baseUrl: 'https://h', token: 'tok', userAgent: 'x', parallelism: 0 })).toThrow(UsageError)
  })
})
