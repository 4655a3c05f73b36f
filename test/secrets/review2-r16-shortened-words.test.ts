// Review 2, round 16: a service's words are shortened (300 characters) before apply hides in them
// the secrets the resource holds in clear and the URLs' passwords: one cut in two by the
// shortening was no longer found whole, and its start was printed.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { emulator, exampleSeed, FAST_HTTP, tempdir, TOKEN } from '../e2e/helpers.js'
import { startProxy } from '../e2e/proxy.js'
import { runCli } from '../helpers/cli.js'

beforeAll(ensureBuilt, 120_000)

const CONFIG = ['targets:', '  - id: 2DZkoZH8WMEM', '    site:', '      desc: changed', ''].join('\n')

/** The shop holding its basic auth password and its URL's in clear, behind a service whose plain-text 400 quotes `quoted` after `pad` characters. */
async function serviceQuoting(quoted: (password: string, urlPassword: string) => string, pad: number) {
  const password = 'Live-Clear-Pass-77'
  const urlPassword = 'UrlPassword-9981'
  const seed = exampleSeed()
  const shop = seed.targets!.find((t) => t.id === '2DZkoZH8WMEM')!
  shop.site!.basic_auth = { username: 'scanner', password, password_is_sensitive: true }
  shop.site!.url = `https://u:${urlPassword}@shop.example.com/`
  const em = await emulator({ seed })
  const answer = `${'x'.repeat(pad)} ${quoted(password, urlPassword)} is not accepted`
  const proxy = await startProxy(em.url, async (request, forward) => (request.method === 'PATCH' ? { status: 400, body: answer, contentType: 'text/plain' } : forward()))
  return { SCANSYNC_API_URL: proxy.url, SCANSYNC_API_TOKEN: TOKEN, ...FAST_HTTP }
}

describe("apply: a service's words cut by the shortening", () => {
  it('do not print the start of a URL password cut in two', async () => {
    const env = await serviceQuoting(() => 'https://u:UnknownPass123456@other.example.com/', 280)
    const run = await runCli(['apply', '--auto-approve'], { cwd: tempdir({ 'a.yaml': CONFIG }), env })
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('the service rejected the request (HTTP 400)')
    expect(run.stdout + run.stderr).not.toMatch(/UnknownPa/)
  })

  it("do not print the start of the resource's URL password cut in two", async () => {
    const env = await serviceQuoting((_, urlPassword) => `https://u:${urlPassword}@shop.example.com/`, 280)
    const run = await runCli(['apply', '--auto-approve'], { cwd: tempdir({ 'a.yaml': CONFIG }), env })
    expect(run.code).toBe(1)
    expect(run.stdout + run.stderr).not.toMatch(/UrlPass/)
  })

  it('do not print the start of a password the resource holds in clear cut in two', async () => {
    const env = await serviceQuoting((password) => `password ${password}`, 278)
    const run = await runCli(['apply', '--auto-approve'], { cwd: tempdir({ 'a.yaml': CONFIG }), env })
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('the service rejected the request (HTTP 400)')
    expect(run.stdout + run.stderr).not.toMatch(/Live-Clear/)
  })
})
