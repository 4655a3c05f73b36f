// Review round 16: a live URL's password as URL parsers read it, with an `@` in the user name or
// the password (the user information runs to the authority's last `@`).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { holdsUrlPassword, urlPasswords } from '../../src/schema/sensitivity.js'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, exampleSeed, tempdir } from '../e2e/helpers.js'

beforeAll(ensureBuilt, 120_000)

describe("a URL's password with an @ in its user information", () => {
  it('is found as URL parsers find it', () => {
    expect(holdsUrlPassword('https://scanner@example.com:Secr3tPass@shop.example.com/')).toBe(true)
    expect(urlPasswords('https://scanner@example.com:Secr3tPass@shop.example.com/')).toEqual(['Secr3tPass'])
    expect(urlPasswords('see https://deploy:P@ssw0rd1@staging.example.com/ and https://u:p:q@r@h/')).toEqual(['P@ssw0rd1', 'p:q@r'])
    // No password: an @ after the authority, or a user name alone.
    expect(holdsUrlPassword('https://user@host:8080/p@x')).toBe(false)
    expect(holdsUrlPassword('https://host:8080/a@b')).toBe(false)
  })

  it('plan hides a text quoting it; import writes neither the URL nor the text', async () => {
    const seed = exampleSeed()
    const staging = seed.targets!.find((t) => t.id === '7QwErTy2UiOp')!
    staging.site!.url = 'https://scanner@example.com:Secr3tPass@staging.shop.example.com/'
    const promo = seed.targets!.find((t) => t.id === '9XcVbN5mQwEr')!
    promo.site!.url = 'https://deploy:P@ssw0rd1@promo.example.com/'
    promo.site!.desc = 'auth deploy / P@ssw0rd1'
    const em = await emulator({ seed })
    const dir = tempdir({ 'a.yaml': ['targets:', '  - id: 9XcVbN5mQwEr', '    site:', '      desc: new', ''].join('\n') })
    const leaks = (text: string) => ['Secr3tPass', 'ssw0rd1'].filter((secret) => text.includes(secret))

    const plan = await cli(em, dir, ['plan'])
    expect(plan.code, plan.stderr).toBe(0)
    expect(leaks(plan.stdout + plan.stderr)).toEqual([])
    expect(plan.stdout).toContain('site.desc: (sensitive) -> (sensitive)')

    const imported = await cli(em, dir, ['import', '--kind', 'target', '--id', '7QwErTy2UiOp,9XcVbN5mQwEr', '--out', 'imported'])
    expect(imported.code, imported.stderr).toBe(0)
    expect(leaks(imported.stdout + imported.stderr + readFileSync(join(dir, 'imported', 'targets.yaml'), 'utf8'))).toEqual([])
  })
})
