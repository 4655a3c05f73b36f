// A proxy that takes the connection and never answers CONNECT (an overloaded or misrouted company
// proxy): each attempt gives up after SCANSYNC_TIMEOUT_MS, as without a proxy. It waited undici's own
// 5 minutes for each tunnel, whatever SCANSYNC_TIMEOUT_MS said, the plan showing "Reading: 0 of 8 done".
import { createServer } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { cli, emulator, exampleConfig, TOKEN } from './helpers.js'

const sockets = new Set<Socket>()
const server = createServer((_req, res) => res.writeHead(405).end())
let tunnelsAsked = 0
server.on('connect', (_req, client: Socket) => {
  // Never answered: the tunnel is neither opened nor refused.
  tunnelsAsked++
  sockets.add(client)
  client.on('error', () => {})
})
afterAll(async () => {
  for (const socket of sockets) socket.destroy()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

describe('a proxy that never answers the request for a tunnel', () => {
  it('fails each attempt after SCANSYNC_TIMEOUT_MS, not after undici’s five minutes', async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const proxy = `127.0.0.1:${(server.address() as AddressInfo).port}`
    const em = await emulator()
    const service = new URL(em.url)
    service.hostname = 'api.example.test'
    const password = 'Stall-Pr0xy-Pa55-4c1e'

    const run = await cli(em, exampleConfig(), ['plan', '--insecure-http'], {
      SCANSYNC_API_URL: service.href,
      HTTP_PROXY: `http://scansync:${password}@${proxy}`,
      SCANSYNC_TIMEOUT_MS: '300',
      SCANSYNC_MAX_ATTEMPTS: '2',
    })

    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`no complete answer from the service within 300 ms (2 attempts), through the proxy ${proxy} (HTTP_PROXY)`)
    expect(tunnelsAsked).toBeGreaterThan(0)
    expect(run.stdout + run.stderr).not.toContain(password)
    expect(run.stdout + run.stderr).not.toContain(TOKEN)
    // Well under undici's 300 s wait for a CONNECT answer, whatever the machine's speed.
  }, 120_000)
})
