// The transport loads two of undici's own modules instead of its index (src/client/undici-pool.ts).
// They are internal paths: this pins what the transport relies on, so that an upgrade of undici
// that moves them fails here rather than in use.
import { createServer, type RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { Pool, poolRequest } from '../../src/client/undici-pool.js'
import { ensureBuilt } from '../config/helpers.js'

const require = createRequire(import.meta.url)
const execFileAsync = promisify(execFile)

/** A loopback server answering with `handler`, and its URL. */
async function listening(handler: RequestListener): Promise<{ url: string; close: () => void }> {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }
}

/** Answers with the request's method and URL as JSON, with `status`. */
const echo =
  (status: number): RequestListener =>
  (request, response) => {
    response.writeHead(status, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ method: request.method, url: request.url }))
  }

type Answer = { statusCode: number; body: { text(): Promise<string> } }
interface Closable {
  close(): Promise<unknown>
}

/** One request through a pool to an echo server answering `status`: the status and the body it read back. */
async function roundTrip<P extends Closable>(status: number, open: (url: string) => P, send: (pool: P) => Promise<Answer>): Promise<{ status: number; body: unknown }> {
  const server = await listening(echo(status))
  const pool = open(server.url)
  try {
    const response = await send(pool)
    return { status: response.statusCode, body: JSON.parse(await response.body.text()) }
  } finally {
    await pool.close()
    server.close()
  }
}

describe("undici's Pool without its index", () => {
  it('is the Pool undici exports, at the pinned version', async () => {
    const pkg = JSON.parse(readFileSync(require.resolve('undici/package.json'), 'utf8')) as { version: string }
    const ours = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> }
    expect(ours.dependencies.undici).toBe(pkg.version)
    const undici = (await import('undici')) as { Pool: unknown }
    expect(Pool).toBe(undici.Pool)
  })

  it('sends a request and reads the answer, as pool.request does', async () => {
    const answer = await roundTrip(201, (url) => new Pool(url, { connections: 2 }), (pool) => poolRequest(pool, { path: '/x?y=1', method: 'GET' }))
    expect(answer).toEqual({ status: 201, body: { method: 'GET', url: '/x?y=1' } })
  })

  it('the build\'s one file of them (dist/client/undici.bundle.cjs, what the CLI loads) comes from the pinned version and sends a request as pool.request does', async () => {
    await ensureBuilt()
    const built = require('../../dist/client/undici.bundle.cjs') as { Pool: typeof Pool; request: (this: unknown, options: object) => Promise<Answer>; version: string }
    const ours = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> }
    expect(built.version).toBe(ours.dependencies.undici)
    const answer = await roundTrip(200, (url) => new built.Pool(url, { connections: 1 }), (pool) => built.request.call(pool, { path: '/y', method: 'PATCH', body: '{}' }))
    expect(answer).toEqual({ status: 200, body: { method: 'PATCH', url: '/y' } })
  })

  it("the build's one file leaves node:http2 (and with it tls and most of crypto) unloaded for HTTP/1.1: undici's HTTP/2 client is required when first used", async () => {
    await ensureBuilt()
    const server = await listening(echo(200))
    const probe = [
      `const built = require(${JSON.stringify(fileURLToPath(new URL('../../dist/client/undici.bundle.cjs', import.meta.url)))})`,
      `const pool = new built.Pool(${JSON.stringify(server.url)}, { connections: 1 })`,
      "built.request.call(pool, { path: '/', method: 'GET' }).then(async (response) => {",
      '  await response.body.text()',
      '  await pool.close()',
      "  const loaded = (name) => process.moduleLoadList.includes('NativeModule ' + name)",
      "  console.log(JSON.stringify({ status: response.statusCode, http2: loaded('http2'), tls: loaded('tls'), net: loaded('net') }))",
      '})',
    ].join('\n')
    try {
      const { stdout } = await execFileAsync(process.execPath, ['-e', probe])
      expect(JSON.parse(stdout)).toEqual({ status: 200, http2: false, tls: false, net: true })
    } finally {
      server.close()
    }
  })
})
