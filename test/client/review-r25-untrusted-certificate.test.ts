// Review round 25 (the network as corporate CI has it): behind a TLS-inspecting proxy or against a
// service with an internal certificate authority, every run failed with
// "could not reach the service at https://…: DEPTH_ZERO_SELF_SIGNED_CERT" (or
// SELF_SIGNED_CERT_IN_CHAIN, UNABLE_TO_GET_ISSUER_CERT_LOCALLY): a bare OpenSSL code, no word
// saying that the certificate is not trusted, nothing naming NODE_EXTRA_CA_CERTS, the one way to
// trust an extra certificate authority in Node.js. An https:// URL pointing at a plain-http port
// printed ERR_SSL_WRONG_VERSION_NUMBER alone. The code is still shown, after words that say what
// is wrong, and the hint names NODE_EXTRA_CA_CERTS.
import { readFileSync } from 'node:fs'
import { createServer as createHttpServer, type Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { afterAll, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { temporaryDirectory } from '../helpers/emulator.js'

const TOKEN = 'tok-review25-Cert-7c1d9e'
const servers: Server[] = []
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
})

async function listen(server: Server): Promise<number> {
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

const received: string[] = []
const answer: Parameters<typeof createHttpServer>[1] = (req, res) => {
  received.push(`${req.method} ${req.url}`)
  res.writeHead(200, { 'content-type': 'application/json' })
  res.end('{"count":0,"next":null,"previous":null,"results":[]}')
}

const config = (): string => temporaryDirectory('scansync-r25-cert-', { 'agents.yaml': 'agents:\n  - id: 3kLx8Qy7Pb2m\n    name: a\n' })

it('a self-signed certificate is said to be untrusted, and NODE_EXTRA_CA_CERTS is named', async () => {
  // The self-signed certificate of test/fixtures/tls (for api.example.test: trust is checked before the name).
  const tls = (name: string) => readFileSync(new URL(`../fixtures/tls/api.example.test.${name}`, import.meta.url))
  const port = await listen(createHttpsServer({ key: tls('key'), cert: tls('crt') }, answer))

  const result = await runCli(['plan', config(), '--api-url', `https://127.0.0.1:${port}`], { env: { SCANSYNC_API_TOKEN: TOKEN } })
  expect(result.code, result.stderr).toBe(1)
  expect(result.stderr).toContain("the service's TLS certificate is self-signed and not trusted (DEPTH_ZERO_SELF_SIGNED_CERT)")
  expect(result.stderr).toContain('NODE_EXTRA_CA_CERTS')
  expect(result.stdout + result.stderr).not.toContain(TOKEN)
  // The handshake failed: no request reached the server.
  expect(received).toEqual([])
})

it('an https:// URL at a plain-http port says the other side does not speak TLS', async () => {
  const port = await listen(createHttpServer(answer))
  const result = await runCli(['plan', config(), '--api-url', `https://127.0.0.1:${port}`], { env: { SCANSYNC_API_TOKEN: TOKEN } })
  expect(result.code, result.stderr).toBe(1)
  expect(result.stderr).toMatch(/does not speak TLS .*\(ERR_SSL_WRONG_VERSION_NUMBER\)/)
  expect(result.stderr).not.toContain('NODE_EXTRA_CA_CERTS')
  expect(result.stdout + result.stderr).not.toContain(TOKEN)
})
