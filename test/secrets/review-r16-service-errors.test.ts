// Review round 16: a service's error quoting what the resource holds in clear (a password the
// service does not obfuscate, its URL's password): secrets the run read, never declared.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { emulator, exampleSeed, FAST_HTTP, tempdir, TOKEN } from '../e2e/helpers.js'
import { startProxy } from '../e2e/proxy.js'
import { runCli } from '../helpers/cli.js'

beforeAll(ensureBuilt, 120_000)

const CONFIG = ['targets:', '  - id: 2DZkoZH8WMEM', '    site:', '      desc: changed', ''].join('\n')

/** The shop holding its basic auth password and its URL's in clear, behind a service whose 400 quotes both. */
async function serviceQuoting(password: string, urlPassword: string) {
  const seed = exampleSeed()
  const shop = seed.targets!.find((t) => t.id === '2DZkoZH8WMEM')!
  shop.site!.basic_auth = { username: 'scanner', password, password_is_sensitive: true }
  shop.site!.url = `https://u:${urlPassword}@shop.example.com/`
  const em = await emulator({ seed })
  const answer = JSON.stringify({ site: { basic_auth: { password: [`"${password}" is too common.`] }, url: [`"https://u:${urlPassword}@shop.example.com/" is not reachable.`] } })
  const proxy = await startProxy(em.url, async (request, forward) => (request.method === 'PATCH' ? { status: 400, body: answer } : forward()))
  return { SCANSYNC_API_URL: proxy.url, SCANSYNC_API_TOKEN: TOKEN, ...FAST_HTTP }
}

describe("apply: a service's error quoting a secret the resource holds in clear", () => {
  it('is shown without it (replaced), in text and json', async () => {
    const env = await serviceQuoting('Live-Clear-Pass-77', 'UrlPw-9981')
    const dir = tempdir({ 'a.yaml': CONFIG })
    for (const format of ['text', 'json']) {
      const run = await runCli(['apply', '--auto-approve', '--format', format], { cwd: dir, env })
      expect(run.code).toBe(1)
      const output = run.stdout + run.stderr
      expect(output).not.toContain('Live-Clear-Pass-77')
      expect(output).not.toContain('UrlPw-9981')
      expect(output).toContain('is too common')
    }
  })

  it('one too short to replace withholds the words', async () => {
    const env = await serviceQuoting('Kw9z', 'Pq4')
    const dir = tempdir({ 'a.yaml': CONFIG })
    const run = await runCli(['apply', '--auto-approve'], { cwd: dir, env })
    expect(run.code).toBe(1)
    expect(run.stdout + run.stderr).not.toMatch(/Kw9z|Pq4@/)
    expect(run.stdout).toContain('the service answered 400; its words are withheld')
  })
})
