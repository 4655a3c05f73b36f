import { afterEach, describe, expect, it } from 'vitest'

import { AuthenticationError, clientRedaction, flattenFieldErrors, ServiceUnavailableError, UnexpectedResponseError, ValidationError } from '../../src/client/index.js'
import { Redaction } from '../../src/core/redaction.js'
import { cleanup, json, rejection, setup, startServer, TOKEN, type TestServer } from './server.js'

const others: TestServer[] = []
const known = (...secrets: string[]) => {
  const redaction = new Redaction()
  redaction.add(secrets)
  return redaction
}
afterEach(async () => {
  await cleanup()
  await Promise.all(others.splice(0).map((server) => server.close()))
})

describe('redirects', () => {
  it.each([301, 302, 307, 308])('a %i is not followed and the token goes nowhere else', async (status) => {
    const elsewhere = await startServer((_req, res) => json(res, 200, { stolen: true }))
    others.push(elsewhere)
    const { server, client } = await setup((_req, res) => {
      res.writeHead(status, { Location: `${elsewhere.origin}/collect?from=scansync` })
      res.end()
    })
    const error = await rejection(client.request('PATCH', '/targets/a/', { resource: 'target a', body: { x: 1 } }))
    expect(error).toBeInstanceOf(UnexpectedResponseError)
    expect(error.message).toBe(
      `target a: the service answered with a redirect (HTTP ${status}) to ${elsewhere.origin}; redirects are not followed`,
    )
    expect(error.message).not.toContain('/collect')
    expect(elsewhere.received).toHaveLength(0)
    expect(server.received).toHaveLength(1)
  })
})

describe('the token and other secrets', () => {
  it('never appear in debug lines or error messages, even when the service echoes them', async () => {
    const lines: string[] = []
    const secret = 'hunter2-site-password'
    const { client } = await setup(
      (req, res) => {
        const echo = `${req.headers.authorization ?? ''} ${secret}`
        if (req.url?.startsWith('/auth/')) json(res, 401, { detail: `Invalid token: ${echo}` })
        else if (req.url?.startsWith('/bad/')) json(res, 400, { site: { credentials: { password: [`"${secret}" is too weak, ${echo}`] } }, detail: echo })
        else if (req.url?.startsWith('/oops/')) json(res, 500, { detail: echo })
        else if (req.url?.startsWith('/busy/')) json(res, 503, { detail: echo })
        else if (req.url?.startsWith('/teapot/')) json(res, 418, echo)
        else if (req.url?.startsWith('/text/')) {
          res.writeHead(422, { 'Content-Type': 'text/plain' })
          res.end(echo)
        } else json(res, 200, { ok: true })
      },
      { debug: (line) => lines.push(line), redaction: known(secret), maxAttempts: 2 },
    )
    const body = { site: { credentials: { password: secret } } }
    const errors: Error[] = []
    for (const path of ['/auth/', '/bad/', '/oops/', '/busy/', '/teapot/', '/text/']) {
      errors.push(await rejection(client.request('PATCH', path, { body, resource: `target with ${secret}` })))
    }
    await client.request('PUT', '/fine/', { body })

    expect(errors[0]).toBeInstanceOf(AuthenticationError)
    const validation = errors[1] as ValidationError
    expect(validation).toBeInstanceOf(ValidationError)
    expect(validation.problems[0]?.path).toBe('site.credentials.password')
    expect(validation.message).toContain('(sensitive)')
    const everything = [
      ...lines,
      ...errors.map((error) => error.message),
      JSON.stringify(validation.fieldErrors),
      JSON.stringify(validation.problems),
      validation.detail ?? '',
      ...errors.map((error) => String((error as { resource?: string }).resource)),
    ].join('\n')
    expect(everything).not.toContain(TOKEN)
    expect(everything).not.toContain(secret)
    expect(lines.length).toBeGreaterThanOrEqual(8)
  })

  it('debug shows method, URL, status, attempt and headers with Authorization redacted, and body sizes only', async () => {
    const lines: string[] = []
    const { server, client } = await setup(
      (_req, res, { index }) => (index === 0 ? json(res, 503, {}) : json(res, 200, { ok: true })),
      { debug: (line) => lines.push(line), maxAttempts: 3 },
    )
    const body = { site: { name: 'a body we must not print' } }
    await client.request('PATCH', '/targets/a/', { body })
    expect(lines).toHaveLength(2)
    const [first, second] = lines as [string, string]
    expect(first).toContain(`PATCH ${server.origin}/targets/a/ attempt 1/3 -> 503`)
    expect(first).toMatch(/retrying in \d+ ms/)
    expect(second).toContain(`PATCH ${server.origin}/targets/a/ attempt 2/3 -> 200 in `)
    for (const line of lines) {
      expect(line).toContain('Authorization: JWT (redacted)')
      expect(line).toContain('User-Agent: scansync/0.0.0-test')
      expect(line).toContain(`request body ${Buffer.byteLength(JSON.stringify(body))} bytes`)
      expect(line).not.toContain('must not print')
      expect(line).not.toContain(TOKEN)
    }
  })

  it('the token is redacted from messages even when the resource name carries it', async () => {
    const { client } = await setup((_req, res) => json(res, 404, {}))
    const error = await rejection(client.request('GET', '/x/', { resource: `target ${TOKEN}` }))
    expect(error.message).toBe('target (redacted) not found')
  })
})

describe('the client redacts with the run\'s redaction', () => {
  it('knows the token as well as the caller\'s secrets (moved from policy.test.ts: createRedactor)', () => {
    const redaction = clientRedaction('tok123', known('hunter2'))
    expect(redaction.redact('a tok123 b hunter2')).toBe('a (redacted) b (sensitive)')
    expect(clientRedaction('tok123').redact('a tok123')).toBe('a (redacted)')
  })
})

describe('service text is redacted whole, before it is folded or shortened', () => {
  const secret = 'multi\nline-Secret-7q'

  it('a secret with a line break, echoed in a 400 body, does not leak (folding used to join its lines first)', async () => {
    const { client } = await setup(
      (req, res) => {
        if (req.url?.startsWith('/json/')) return json(res, 400, { detail: `bad value ${secret}`, site: { password: [`${secret} is weak`] } })
        if (req.url?.startsWith('/oops/')) return json(res, 500, { detail: `bad value ${secret}` })
        res.writeHead(400, { 'Content-Type': 'text/plain' })
        res.end(`bad value ${secret}`)
      },
      { redaction: known(secret), maxAttempts: 1 },
    )
    const error = (await rejection(client.request('PATCH', '/json/', { resource: 'target a', body: {} }))) as ValidationError
    const text = (await rejection(client.request('PATCH', '/text/', { resource: 'target a', body: {} }))) as ValidationError
    const failed = await rejection(client.request('PATCH', '/oops/', { resource: 'target a', body: {} }))
    const everything = [error.message, error.detail ?? '', JSON.stringify(error.fieldErrors), JSON.stringify(error.problems), text.message, text.detail ?? '', failed.message].join('\n')
    expect(everything).toContain('(sensitive)')
    for (const part of ['multi', 'line-Secret']) expect(everything).not.toContain(part)
  })

  it('the token in a 500 body longer than 300 characters is not cut into a leaking piece', async () => {
    const detail = `${'x'.repeat(290)} ${TOKEN} ${'y'.repeat(50)}`
    const { client } = await setup((_req, res) => json(res, 500, { detail }), { maxAttempts: 1 })
    const error = await rejection(client.request('GET', '/targets/a/', { resource: 'target a' }))
    expect(error).toBeInstanceOf(ServiceUnavailableError)
    expect(error.message).not.toContain(TOKEN.slice(0, 6))
    expect(error.message).toMatch(/x{200}/)
  })

  it.each([
    ['a 3-character secret', 'q7z'],
    ['a common word', 'service'],
  ])('%s echoed by the service: its words are withheld, the status and field names remain', async (_what, secret) => {
    const { client } = await setup(
      (req, res) =>
        req.url?.startsWith('/bad/')
          ? json(res, 400, { site: { basic_auth: { password: [`wrong ${secret} given`] } }, detail: `wrong ${secret} given` })
          : json(res, 500, { detail: `wrong ${secret} given` }),
      { redaction: known(secret), maxAttempts: 1 },
    )
    const bad = (await rejection(client.request('PATCH', '/bad/', { resource: 'target a', body: {} }))) as ValidationError
    expect(bad.message).toContain('target a: the service rejected the request (HTTP 400): fields site.basic_auth.password')
    expect(bad.problems.map((p) => p.path)).toEqual(['site.basic_auth.password'])
    const failed = await rejection(client.request('GET', '/oops/', { resource: 'target a' }))
    expect(failed.message).toContain('target a: the service failed (HTTP 500)')
    expect(bad.message).toContain('withheld')
    expect(failed.message).toContain('withheld')
    for (const text of [bad.message, JSON.stringify(bad.problems), JSON.stringify(bad.fieldErrors), bad.detail ?? '', failed.message]) {
      expect(text).not.toContain('given')
      expect(text).not.toContain('(sensitive)')
      if (secret !== 'service') expect(text).not.toContain(secret)
    }
  })

  it('a 400 body nested 200,000 deep gives a clear error, not a stack overflow', async () => {
    const deep = '['.repeat(200_000) + '"x"' + ']'.repeat(200_000)
    const { client } = await setup((_req, res) => {
      res.writeHead(400, { 'Content-Type': 'application/json' })
      res.end(`{"site": ${deep}}`)
    })
    const error = await rejection(client.request('PATCH', '/targets/a/', { resource: 'target a', body: {} }))
    expect(error).toBeInstanceOf(ValidationError)
    expect(error.message).toBe("target a: the service rejected the request (HTTP 400): the service's answer is nested more than 64 levels deep; its details are not shown")
    // And the flattening itself has no recursion limit.
    expect(flattenFieldErrors(JSON.parse(`{"a": ${deep}}`))).toEqual([])
  })
})
