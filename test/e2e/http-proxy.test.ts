// A service reached through an HTTP proxy (HTTPS_PROXY, HTTP_PROXY, ALL_PROXY, NO_PROXY), as in a
// corporate CI runner: a tunnel (CONNECT) per connection, the token inside the tunnel only, the
// proxy's password never printed. The proxy here is a CONNECT proxy on 127.0.0.1 that ties every
// tunnel to the emulator, whatever host was asked for: nothing is resolved and nothing leaves the machine.
import { readFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { createServer as createTlsServer } from 'node:tls'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { spawnCli } from '../helpers/cli.js'
import { cli, emulator, envFor, exampleConfig, TOKEN } from './helpers.js'

interface Tunnel {
  target: string
  headers: IncomingHttpHeaders
}

const closers: Array<() => Promise<void>> = []
afterAll(async () => {
  await Promise.all(closers.splice(0).map((close) => close()))
})

/** A CONNECT proxy whose tunnels all lead to `port` on 127.0.0.1, or that answers `refuse` to each. */
async function startConnectProxy(port: number, refuse?: number): Promise<{ address: string; tunnels: Tunnel[] }> {
  const tunnels: Tunnel[] = []
  const sockets = new Set<Socket>()
  const server = createServer((_req, res) => res.writeHead(405).end())
  server.on('connect', (req, client: Socket, head: Buffer) => {
    tunnels.push({ target: req.url ?? '', headers: req.headers })
    sockets.add(client)
    client.on('error', () => {})
    if (refuse !== undefined) {
      client.end(`HTTP/1.1 ${refuse} Refused\r\nContent-Length: 0\r\n\r\n`)
      return
    }
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      if (head.length > 0) upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    sockets.add(upstream)
    upstream.on('error', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  )
  return { address: `127.0.0.1:${(server.address() as AddressInfo).port}`, tunnels }
}

const PROXY_PASSWORD = 'Proxy-Pa55word-7d2e'

/** A self-signed certificate for api.example.test (test/fixtures/tls), and its key. */
const TLS_FILES = fileURLToPath(new URL('../fixtures/tls/', import.meta.url))
const CERTIFICATE = `${TLS_FILES}api.example.test.crt`

/** https://api.example.test as a TLS server on 127.0.0.1 in front of `port`: what a tunnel to it reaches. */
async function startTlsFront(port: number): Promise<number> {
  const server = createTlsServer({ key: readFileSync(`${TLS_FILES}api.example.test.key`), cert: readFileSync(CERTIFICATE) }, (socket) => {
    const upstream = connect(port, '127.0.0.1')
    socket.on('error', () => upstream.destroy())
    upstream.on('error', () => socket.destroy())
    socket.pipe(upstream).pipe(socket)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return (server.address() as AddressInfo).port
}

describe('a service reached through an HTTP proxy', () => {
  it('plans through the proxy exactly as directly, with the token inside the tunnel and the proxy credentials sent to the proxy alone', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    const direct = await cli(em, dir, ['plan'])
    expect(direct.code).toBe(0)
    const proxy = await startConnectProxy(Number(new URL(em.url).port))
    // A name nothing resolves: only the proxy can reach it (and this one leads it to the emulator).
    const service = new URL(em.url)
    service.hostname = 'api.example.test'
    const before = em.requests().length

    const run = await cli(em, dir, ['plan', '--insecure-http', '--debug'], {
      SCANSYNC_API_URL: service.href,
      HTTP_PROXY: `http://scansync:${PROXY_PASSWORD}@${proxy.address}`,
    })

    expect(run.code).toBe(0)
    expect(run.stdout).toBe(direct.stdout)
    expect(run.stderr).toContain(`debug: requests to http://api.example.test:${service.port} go through the proxy ${proxy.address} (HTTP_PROXY)\n`)
    expect(em.requests().length - before).toBeGreaterThan(0)
    expect(proxy.tunnels.length).toBeGreaterThan(0)
    for (const tunnel of proxy.tunnels) {
      expect(tunnel.target).toBe(`api.example.test:${service.port}`)
      expect(tunnel.headers['proxy-authorization']).toBe(`Basic ${Buffer.from(`scansync:${PROXY_PASSWORD}`).toString('base64')}`)
      expect(JSON.stringify(tunnel.headers)).not.toContain(TOKEN)
    }
    expect(run.stdout + run.stderr).not.toContain(PROXY_PASSWORD)
    expect(run.stdout + run.stderr).not.toContain(TOKEN)
  })

  it('reaches an https service through HTTPS_PROXY: TLS to the service inside the tunnel, its certificate checked', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    const direct = await cli(em, dir, ['plan'])
    const proxy = await startConnectProxy(await startTlsFront(Number(new URL(em.url).port)))
    const service = `https://api.example.test${new URL(em.url).pathname}`
    const env = { ...envFor(em), SCANSYNC_API_URL: service, HTTPS_PROXY: `http://scansync:${PROXY_PASSWORD}@${proxy.address}` }

    // A child process: Node reads NODE_EXTRA_CA_CERTS when it starts, as in CI with a company's certificate.
    const run = await spawnCli(['plan', dir], { env: { ...env, NODE_EXTRA_CA_CERTS: CERTIFICATE } })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(direct.stdout)
    expect(proxy.tunnels.length).toBeGreaterThan(0)
    expect(proxy.tunnels.every((tunnel) => tunnel.target === 'api.example.test:443')).toBe(true)

    // Without the certificate trusted, the service is not reached, and nothing of the token or the proxy's password is printed.
    const untrusted = await spawnCli(['plan', dir], { env })
    expect(untrusted.code).toBe(1)
    expect(untrusted.stderr).toContain(`could not reach the service at https://api.example.test through the proxy ${proxy.address} (HTTPS_PROXY): the service's TLS certificate is self-signed and not trusted`)
    expect(untrusted.stderr).toContain('NODE_EXTRA_CA_CERTS')
    expect(untrusted.stdout + untrusted.stderr).not.toContain(PROXY_PASSWORD)
    expect(untrusted.stdout + untrusted.stderr).not.toContain(TOKEN)
  })

  it('logs in to a proxy whose URL gives a user name alone (a token), and never prints it', async () => {
    const em = await emulator()
    const proxy = await startConnectProxy(Number(new URL(em.url).port))
    const service = new URL(em.url)
    service.hostname = 'api.example.test'
    const run = await cli(em, exampleConfig(), ['plan', '--insecure-http', '--debug'], {
      SCANSYNC_API_URL: service.href,
      HTTP_PROXY: `http://${PROXY_PASSWORD}@${proxy.address}`,
    })
    expect(run.code).toBe(0)
    expect(proxy.tunnels.length).toBeGreaterThan(0)
    for (const tunnel of proxy.tunnels) expect(tunnel.headers['proxy-authorization']).toBe(`Basic ${Buffer.from(`${PROXY_PASSWORD}:`).toString('base64')}`)
    expect(run.stdout + run.stderr).not.toContain(PROXY_PASSWORD)
  })

  it('connects to a loopback service directly, proxy or not: the emulator is never behind a proxy', async () => {
    const em = await emulator()
    const proxy = await startConnectProxy(Number(new URL(em.url).port))
    const run = await cli(em, exampleConfig(), ['plan'], { HTTP_PROXY: `http://${proxy.address}`, ALL_PROXY: `http://${proxy.address}` })
    expect(run.code).toBe(0)
    expect(proxy.tunnels).toEqual([])
  })

  it('names the proxy and what it answered when it refuses the tunnel, sends nothing, and does not try again', async () => {
    const em = await emulator()
    const proxy = await startConnectProxy(Number(new URL(em.url).port), 407)
    const service = new URL(em.url)
    service.hostname = 'api.example.test'
    const before = em.requests().length

    const run = await cli(em, exampleConfig(), ['plan', '--insecure-http', '--debug'], {
      SCANSYNC_API_URL: service.href,
      http_proxy: `http://scansync:${PROXY_PASSWORD}@${proxy.address}`,
    })

    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`could not reach the service at http://api.example.test:${service.port} through the proxy ${proxy.address} (http_proxy)`)
    expect(run.stderr).toContain("the proxy refused the connection with HTTP 407 (proxy authentication required: put the proxy's user name and password in the proxy variable's URL)")
    expect(run.stderr).not.toContain(PROXY_PASSWORD)
    expect(em.requests().length).toBe(before)
    // Credentials refused once are refused again: each request is tried once, one tunnel asked for each.
    const attempts = run.stderr.split('\n').filter((text) => text.startsWith('debug: GET '))
    expect(attempts.length).toBeGreaterThan(0)
    expect(attempts.every((text) => text.includes(' attempt 1/'))).toBe(true)
    expect(proxy.tunnels.length).toBe(attempts.length)
  })

  it('refuses a proxy it cannot go through before sending anything, without repeating its password', async () => {
    const em = await emulator()
    const before = em.requests().length
    const run = await cli(em, exampleConfig(), ['plan'], {
      SCANSYNC_API_URL: 'https://api.example.test/api/v1',
      ALL_PROXY: `socks5://scansync:${PROXY_PASSWORD}@127.0.0.1:1`,
    })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('ALL_PROXY names a socks5 proxy: scansync goes through http:// and https:// proxies only')
    expect(run.stderr).not.toContain(PROXY_PASSWORD)
    expect(em.requests().length).toBe(before)
  })
})
