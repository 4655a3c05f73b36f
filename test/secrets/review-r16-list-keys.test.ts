// Review round 16: a list key the service holds (a header, a label) quoting a secret of the run is
// part of a field's path, which plans print: the output step leaves a weak secret in it, and
// Markdown's escapes (`Abc\_defgh`) hide a strong one from it.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, exampleSeed, tempdir } from '../e2e/helpers.js'
import { startProxy } from '../e2e/proxy.js'

beforeAll(ensureBuilt, 120_000)

const header = (name: string) => ({ name, value: 'v', value_is_sensitive: false, allow_testing: false, authentication: false, authentication_secondary: false })

function config() {
  return tempdir({
    'a.yaml': [
      'targets:',
      '  - id: 2DZkoZH8WMEM',
      '    site:',
      '      headers: [{name: X-Scanner, value: scansync}]',
      '      basic_auth: {username: scanner, password: "${PW}", password_is_sensitive: true}',
      '',
    ].join('\n'),
  })
}

describe("a live list key holding a secret of the run, in a field's path", () => {
  it('a weak one: the keys are (sensitive) in every format, and in the apply report', async () => {
    const seed = exampleSeed()
    seed.targets!.find((t) => t.id === '2DZkoZH8WMEM')!.site!.headers!.push(header('X-Kw9z') as never)
    const em = await emulator({ seed })
    const dir = config()
    for (const format of ['text', 'json', 'markdown', 'github']) {
      const run = await cli(em, dir, ['plan', '--format', format], { PW: 'Kw9z' })
      expect(run.code, run.stderr).toBe(0)
      expect(run.stdout + run.stderr).not.toMatch(/kw9z/i)
      expect(run.stdout).toContain('site.headers')
    }
    const applied = await cli(em, dir, ['apply', '--auto-approve', '--format', 'json'], { PW: 'Kw9z' })
    expect(applied.code, applied.stderr).toBe(0)
    expect(applied.stdout).not.toMatch(/kw9z/i)
    expect(applied.stdout).toContain('"path": "site.headers[(sensitive)]"')
  })

  it("a weak one in apply's own message about a field the service answered 200 for but did not take", async () => {
    const seed = exampleSeed()
    seed.targets!.find((t) => t.id === '2DZkoZH8WMEM')!.site!.headers!.push(header('X-Kw9z') as never)
    const em = await emulator({ seed })
    // A service that ignores the headers in a PATCH (and answers as if all was well).
    const proxy = await startProxy(em.url, async (request, forward) => {
      if (request.method !== 'PATCH') return forward()
      const body = JSON.parse(request.body)
      delete body.site?.headers
      return forward(JSON.stringify(body))
    })
    for (const format of ['text', 'json']) {
      const run = await cli(em, config(), ['apply', '--auto-approve', '--format', format], { PW: 'Kw9z', SCANSYNC_API_URL: proxy.url })
      expect(run.code, run.stderr).toBe(1)
      expect(run.stdout).toContain('the service answered 200 but did not apply site.headers[(sensitive)]')
      expect(run.stdout + run.stderr).not.toMatch(/kw9z/i)
    }
  })

  it('a strong one with a character Markdown escapes', async () => {
    const seed = exampleSeed()
    seed.targets!.find((t) => t.id === '2DZkoZH8WMEM')!.site!.headers!.push(header('X-Abc_Defgh1') as never)
    const em = await emulator({ seed })
    const run = await cli(em, config(), ['plan', '--format', 'markdown'], { PW: 'Abc_Defgh1' })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).not.toMatch(/Abc\\?_Defgh1/)
  })
})
