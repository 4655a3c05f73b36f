/** A tiny node:http server on 127.0.0.1:0 that records what it receives, for the client tests. */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

import { createClient, type ClientOptions, type ServiceClient } from '../../src/client/index.js'

export interface Received {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: string
  /** Requests in flight on the server when this one arrived, itself included. */
  inFlight: number
  /** The client's port: one per connection. */
  remotePort: number
}

export type Handler = (req: IncomingMessage, res: ServerResponse, info: { index: number; body: string }) => void | Promise<void>

export interface TestServer {
  url: string
  origin: string
  received: Received[]
  maxInFlight(): number
  close(): Promise<void>
}

export const TOKEN = 'tok-9f8e7d6c5b4a-SECRET'

export async function startServer(handler: Handler): Promise<TestServer> {
  const received: Received[] = []
  let inFlight = 0
  let max = 0
  const server = createServer((req, res) => {
    inFlight++
    max = Math.max(max, inFlight)
    const arrivedInFlight = inFlight
    let done = false
    const finish = (): void => {
      if (!done) {
        done = true
        inFlight--
      }
    }
    res.on('close', finish)
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const index = received.length
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, inFlight: arrivedInFlight, remotePort: req.socket.remotePort ?? 0 })
      Promise.resolve(handler(req, res, { index, body })).catch((error: unknown) => {
        res.statusCode = 599
        res.end(String(error))
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const origin = `http://127.0.0.1:${port}`
  return {
    url: origin,
    origin,
    received,
    maxInFlight: () => max,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers })
  res.end(text)
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** Settings that keep retries fast in tests. */
export const FAST: Partial<ClientOptions> = {
  maxAttempts: 4,
  backoff: { baseMs: 1, maxMs: 5 },
  timeoutMs: 5_000,
}

const clients: ServiceClient[] = []
const servers: TestServer[] = []

/** A server plus a client pointed at it; both closed by `cleanup()`. */
export async function setup(
  handler: Handler,
  options: Partial<ClientOptions> = {},
): Promise<{ server: TestServer; client: ServiceClient }> {
  const server = await startServer(handler)
  servers.push(server)
  const client = createClient({ baseUrl: server.url, token: TOKEN, userAgent: 'scansync/0.0.0-test', ...FAST, ...options })
  clients.push(client)
  return { server, client }
}

export async function cleanup(): Promise<void> {
  await Promise.all(clients.splice(0).map((client) => client.close()))
  await Promise.all(servers.splice(0).map((server) => server.close()))
}

/** The rejection of `promise`, failing the test if it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (error) {
    if (error instanceof Error) return error
    throw new Error(`rejected with a non-Error: ${String(error)}`)
  }
  throw new Error('expected a rejection, got a value')
}
