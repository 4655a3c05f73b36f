import { afterEach, describe, expect, it } from 'vitest'

import {
  AuthenticationError,
  MethodNotAllowedError,
  NotFoundError,
  ScansyncError,
  ServiceError,
  ServiceUnavailableError,
  UnexpectedResponseError,
  ValidationError,
} from '../../src/client/index.js'
import { cleanup, json, rejection, setup, TOKEN } from './server.js'

afterEach(cleanup)

describe('requests', () => {
  it('sends the contract headers and parses a JSON 200', async () => {
    const { server, client } = await setup((_req, res) => json(res, 200, { id: 'abc', site: { name: 'x' } }))
    const value = await client.request<{ id: string }>('GET', '/targets/abc/')
    expect(value).toEqual({ id: 'abc', site: { name: 'x' } })
    const [received] = server.received
    expect(received?.method).toBe('GET')
    expect(received?.url).toBe('/targets/abc/')
    expect(received?.headers.authorization).toBe(`JWT ${TOKEN}`)
    expect(received?.headers['content-type']).toBe('application/json')
    expect(received?.headers.accept).toBe('application/json')
    expect(received?.headers['user-agent']).toBe('scansync/0.0.0-test')
    expect(JSON.parse(JSON.stringify(client.stats))).toEqual({ requests: 1, attempts: 1, retries: 0, maxInFlight: 1, concurrency: 8, bytesRead: JSON.stringify({ id: 'abc', site: { name: 'x' } }).length })
  })

  it('appends paths and queries to a base URL with a path', async () => {
    const { server, client } = await setup((_req, res) => json(res, 200, { results: [] }))
    const { createClient } = await import('../../src/client/index.js')
    const withPath = createClient({ baseUrl: `${server.url}/api/v1/`, token: TOKEN, userAgent: 'scansync/1' })
    try {
      await withPath.request('GET', '/targets/', { query: { page: 2, length: 50 } })
      await client.request('GET', '/scanning-agents/')
    } finally {
      await withPath.close()
    }
    expect(server.received.map((r) => r.url)).toEqual(['/api/v1/targets/?page=2&length=50', '/scanning-agents/'])
  })

  it('sends PATCH and PUT bodies as JSON strings', async () => {
    const { server, client } = await setup((_req, res, { body }) => json(res, 200, JSON.parse(body)))
    const body = { site: { name: 'n' }, labels: [1, 2] }
    expect(await client.request('PATCH', '/targets/a/', { body })).toEqual(body)
    expect(await client.request('PUT', '/targets/a/', { body })).toEqual(body)
    expect(server.received.map((r) => [r.method, r.body])).toEqual([
      ['PATCH', JSON.stringify(body)],
      ['PUT', JSON.stringify(body)],
    ])
  })
})

describe('error answers', () => {
  async function failWith(status: number, body: string, contentType = 'application/json', resource?: string): Promise<Error> {
    const { client } = await setup((_req, res) => {
      res.writeHead(status, { 'Content-Type': contentType })
      res.end(body)
    })
    return rejection(client.request('GET', '/targets/2DZkoZH8WMEM/', resource === undefined ? {} : { resource }))
  }

  it('401 is an AuthenticationError pointing at the token', async () => {
    const error = await failWith(401, JSON.stringify({ detail: `Invalid token ${TOKEN}` }), 'application/json', 'target 2DZkoZH8WMEM')
    expect(error).toBeInstanceOf(AuthenticationError)
    expect(error).toBeInstanceOf(ServiceError)
    expect(error).toBeInstanceOf(ScansyncError)
    expect(error.message).toBe('target 2DZkoZH8WMEM: authentication failed (HTTP 401): check SCANSYNC_API_TOKEN')
    expect((error as AuthenticationError).status).toBe(401)
  })

  it('403 is an AuthenticationError too', async () => {
    const error = await failWith(403, JSON.stringify({ detail: 'You do not have permission.' }))
    expect(error).toBeInstanceOf(AuthenticationError)
    // Not "authentication failed": the token was taken (a 403 often comes after reads that passed, on a write).
    expect(error.message).toBe('GET /targets/2DZkoZH8WMEM/: the token is not allowed to read it (HTTP 403): check what SCANSYNC_API_TOKEN may do')
    const { client } = await setup((_req, res) => {
      res.writeHead(403, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify({ detail: 'You do not have permission.' }))
    })
    const write = await rejection(client.request('PATCH', '/targets/2DZkoZH8WMEM/', { body: { site: { name: 'x' } } }))
    expect(write.message).toContain('PATCH /targets/2DZkoZH8WMEM/: the token is not allowed to change it (HTTP 403)')
  })

  it('404 names the resource', async () => {
    const error = await failWith(404, JSON.stringify({ detail: 'Not found.' }), 'application/json', 'target 2DZkoZH8WMEM')
    expect(error).toBeInstanceOf(NotFoundError)
    expect(error.message).toBe('target 2DZkoZH8WMEM not found')
    expect((error as NotFoundError).resource).toBe('target 2DZkoZH8WMEM')
    expect((error as NotFoundError).status).toBe(404)
  })

  it('404 without a resource names the request', async () => {
    const error = await failWith(404, '')
    expect(error.message).toBe('GET /targets/2DZkoZH8WMEM/: not found (HTTP 404)')
  })

  it('405 is a MethodNotAllowedError', async () => {
    const error = await failWith(405, JSON.stringify({ detail: 'Method "GET" not allowed.' }), 'application/json', 'target list')
    expect(error).toBeInstanceOf(MethodNotAllowedError)
    expect(error.message).toBe('target list: method GET not allowed (HTTP 405)')
  })

  it('400 with nested field errors is flattened to paths', async () => {
    const body = { site: { name: ['This field may not be blank.'], url: ['Enter a valid URL.'] }, non_field_errors: ['Conflicting settings.'] }
    const error = await failWith(400, JSON.stringify(body), 'application/json', 'target 2DZkoZH8WMEM')
    expect(error).toBeInstanceOf(ValidationError)
    const validation = error as ValidationError
    expect(validation.status).toBe(400)
    expect(validation.fieldErrors).toEqual(body)
    expect(validation.detail).toBeUndefined()
    expect(validation.problems).toEqual([
      { path: 'site.name', messages: ['This field may not be blank.'] },
      { path: 'site.url', messages: ['Enter a valid URL.'] },
      { path: '', messages: ['Conflicting settings.'] },
    ])
    expect(error.message).toBe(
      'target 2DZkoZH8WMEM: the service rejected the request (HTTP 400): site.name: This field may not be blank.; site.url: Enter a valid URL.; Conflicting settings.',
    )
  })

  it('400 with a detail', async () => {
    const error = (await failWith(400, JSON.stringify({ detail: 'JSON parse error.' }), 'application/json', 'target a')) as ValidationError
    expect(error).toBeInstanceOf(ValidationError)
    expect(error.detail).toBe('JSON parse error.')
    expect(error.problems).toEqual([])
    expect(error.fieldErrors).toEqual({})
    expect(error.message).toBe('target a: the service rejected the request (HTTP 400): JSON parse error.')
  })

  it('502 with an HTML body is "service unavailable", not a parse crash', async () => {
    const { server, client } = await setup((_req, res) => {
      res.writeHead(502, { 'Content-Type': 'text/html' })
      res.end('<html><body><h1>502 Bad Gateway</h1></body></html>')
    }, { maxAttempts: 2 })
    const error = await rejection(client.request('GET', '/targets/a/', { resource: 'target a' }))
    expect(error).toBeInstanceOf(ServiceUnavailableError)
    expect(error.message).toBe('target a: service unavailable (HTTP 502) after 2 attempts')
    expect(error.message).not.toContain('<')
    expect(server.received).toHaveLength(2)
  })

  it('500 is reported at once, with the service detail, and not retried', async () => {
    const { server, client } = await setup((_req, res) => json(res, 500, { detail: 'Internal error, id 42.' }))
    const error = await rejection(client.request('PATCH', '/targets/a/', { resource: 'target a', body: { x: 1 } }))
    expect(error).toBeInstanceOf(ServiceUnavailableError)
    expect(error.message).toBe('target a: the service failed (HTTP 500): Internal error, id 42.')
    expect(server.received).toHaveLength(1)
    expect(client.stats.retries).toBe(0)
  })

  it('other 4xx are UnexpectedResponseErrors and not retried', async () => {
    const { server, client } = await setup((_req, res) => json(res, 409, { detail: 'Conflict.' }))
    const error = await rejection(client.request('PUT', '/targets/a/', { resource: 'target a', body: {} }))
    expect(error).toBeInstanceOf(UnexpectedResponseError)
    expect(error.message).toBe('target a: unexpected answer (HTTP 409): Conflict.')
    expect(server.received).toHaveLength(1)
  })

  it('a 2xx with an empty body is an UnexpectedResponseError', async () => {
    const error = await failWith(200, '', 'application/json', 'target a')
    expect(error).toBeInstanceOf(UnexpectedResponseError)
    expect(error.message).toBe('target a: the service answered HTTP 200 with an empty body')
  })

  it('a 2xx that is not JSON is an UnexpectedResponseError, not retried', async () => {
    const { server, client } = await setup((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' })
      res.end('<html>login page</html>')
    })
    const error = await rejection(client.request('GET', '/targets/a/', { resource: 'target a' }))
    expect(error).toBeInstanceOf(UnexpectedResponseError)
    expect(error.message).toBe('target a: the service answered HTTP 200 with a body that is not JSON (text/html)')
    expect(server.received).toHaveLength(1)
  })
})
