// Issue 8, transport, through the real CLI: https unless loopback (or --insecure-http), the token
// only from the environment, no credentials in the base URL, redirects never followed (the token
// never reaches another origin). Every server here listens on 127.0.0.1.
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir, TOKEN, writes } from '../e2e/helpers.js'
import { startProxy } from '../e2e/proxy.js'

beforeAll(ensureBuilt, 120_000)

const CONFIG = { 'a.yaml': 'agents:\n  - id: 3kLx8Qy7Pb2m\n    name: renamed-agent\n  - id: 6NbVcX4zLkJh\n    name: dc-porto-agent\n' }

/** A server that records every request it gets (another origin: another port). */
async function recorder(): Promise<{ url: string; received: Array<{ method: string; url: string; headers: IncomingHttpHeaders }> }> {
  const received: Array<{ method: string; url: string; headers: IncomingHttpHeaders }> = []
  const server = createServer((req, res) => {
    received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers })
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('{"id": "3kLx8Qy7Pb2m", "name": "renamed-agent", "teams": []}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received }
}
const closers: Array<() => Promise<void>> = []
afterAll(async () => {
  await Promise.all(closers.splice(0).map((close) => close()))
})

const noStack = (text: string) => expect(text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m)

describe('https, unless the host is loopback or --insecure-http says so', () => {
  it('http:// to a host that is not loopback is refused before any connection, naming https:// and --insecure-http', async () => {
    const em = await emulator()
    const dir = tempdir(CONFIG)
    // 0.0.0.0 is not a loopback name, yet a connection to it stays on this machine (and reaches the emulator).
    const other = em.url.replace('127.0.0.1', '0.0.0.0')
    for (const command of [['plan'], ['drift'], ['apply', '--auto-approve'], ['import', '--kind', 'agent', '--all']]) {
      const run = await cli(em, dir, [...command, '--api-url', other])
      expect(run.code, command.join(' ')).toBe(1)
      expect(run.stderr).toContain(`refusing to send the API token over plain http to 0.0.0.0:${new URL(em.url).port}: use https:// or --insecure-http`)
      noStack(run.stderr)
    }
    expect(em.requests()).toEqual([])
    // The same through SCANSYNC_API_URL.
    expect((await cli(em, dir, ['plan'], { SCANSYNC_API_URL: other })).code).toBe(1)
    expect(em.requests()).toEqual([])
  })

  it('with --insecure-http the same URL is used; loopback (127.0.0.0/8) needs no flag', async () => {
    const em = await emulator()
    const dir = tempdir(CONFIG)
    const insecure = await cli(em, dir, ['plan', '--api-url', em.url.replace('127.0.0.1', '0.0.0.0'), '--insecure-http'])
    expect(insecure.stderr).toBe('')
    expect(insecure.code).toBe(0)
    expect(em.requests().length).toBeGreaterThan(0)
    for (const url of [em.url, em.url.replace('127.0.0.1', '127.1')]) {
      const run = await cli(em, dir, ['plan', '--detailed-exitcode', '--api-url', url])
      expect(run.stderr, url).toBe('')
      expect(run.code, url).toBe(2)
    }
  })
})

describe('the token comes from SCANSYNC_API_TOKEN only', () => {
  // One test per command: 24 runs in one test took up to 28 s of its 30 on a loaded machine.
  it.each(['validate', 'plan', 'drift', 'apply', 'import', 'schema'])('%s: --token (and any look-alike) is refused without repeating what was given, and nothing is sent', async (command) => {
    const em = await emulator()
    const dir = tempdir(CONFIG)
    const typed = 'typed-Token-On-The-Command-Line'
    for (const form of [[`--token=${typed}`], ['--token', typed], [`--api-token=${typed}`], [`-t=${typed}`]]) {
      const run = await cli(em, dir, [command, ...form], { SCANSYNC_API_TOKEN: undefined })
      expect(run.code, `${command} ${form.join(' ')}`).toBe(1)
      expect(run.stdout + run.stderr).not.toContain(typed)
      expect(run.stderr).toMatch(/Nonexistent flag|unknown flag/)
    }
    expect(em.requests()).toEqual([])
  })

  it('a token that ends up where a path goes (a script mixing up its arguments) is not printed back', async () => {
    const em = await emulator()
    const run = await cli(em, tempdir(CONFIG), ['plan', TOKEN])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('(redacted):1:1: no such file or directory')
    expect(run.stdout + run.stderr).not.toContain(TOKEN)
  })
})

describe('a base URL with credentials', () => {
  it('is refused (flag or environment), without repeating the password or the user, and nothing is sent', async () => {
    const em = await emulator()
    const dir = tempdir(CONFIG)
    const port = new URL(em.url).port
    for (const url of [`http://scanner:hunter2-Url-Password@127.0.0.1:${port}`, `https://scanner:hunter2-Url-Password@api.example.com/api/v1`, `http://:hunter2-Url-Password@127.0.0.1:${port}/`]) {
      for (const run of [await cli(em, dir, ['plan', '--debug', '--api-url', url]), await cli(em, dir, ['apply', '--auto-approve', '--debug'], { SCANSYNC_API_URL: url })]) {
        expect(run.code).toBe(1)
        expect(run.stderr).toContain('the service URL must not contain a user name or password: put the token in SCANSYNC_API_TOKEN, not in the URL')
        expect(run.stdout + run.stderr).not.toContain('hunter2-Url-Password')
        expect(run.stdout + run.stderr).not.toContain('scanner:')
      }
    }
    expect(em.requests()).toEqual([])
  })
})

describe('redirects are never followed', () => {
  it.each([301, 302, 307, 308])('a %i to another origin, on a read or on a write: a clear error; the other origin receives nothing', async (status) => {
    const em = await emulator()
    const elsewhere = await recorder()
    const redirect = (path: string) => ({ status, body: '', contentType: 'text/plain', headers: { location: `${elsewhere.url}${path}?stolen=1` } })
    // Reads redirected: plan fails.
    const reads = await startProxy(em.url, async (request) => redirect(request.url))
    const planned = await cli(em, tempdir(CONFIG), ['plan', '--debug'], { SCANSYNC_API_URL: reads.url })
    expect(planned.code).toBe(1)
    expect(planned.stderr).toMatch(new RegExp(`the service answered with a redirect \\(HTTP ${status}\\) to ${elsewhere.url.replace(/[.]/g, '\\.')}; redirects are not followed`))
    expect(planned.stderr).not.toContain('stolen')
    // Writes redirected (a 307 or 308 would repeat the PATCH, token and body, at the other origin): that change fails.
    const writesProxy = await startProxy(em.url, async (request, forward) => (request.method === 'PATCH' ? redirect(request.url) : forward()))
    const applied = await cli(em, tempdir(CONFIG), ['apply', '--auto-approve'], { SCANSYNC_API_URL: writesProxy.url })
    expect(applied.code).toBe(1)
    expect(applied.stdout).toMatch(new RegExp(`✗ agent 3kLx8Qy7Pb2m "renamed-agent" failed: the service answered with a redirect \\(HTTP ${status}\\)`))
    expect(applied.stdout).toContain('Apply: 0 applied, 1 failed, 0 not applied, 1 unchanged.')
    noStack(applied.stderr)
    expect(elsewhere.received).toEqual([])
    expect(writes(em)).toEqual([])
  })
})
