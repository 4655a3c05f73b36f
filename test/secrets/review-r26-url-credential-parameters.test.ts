// Review round 26: a URL carrying its credential as a parameter (`?access_token=…`, `?api_key=…`,
// `&X-Amz-Signature=…`, `?sig=…`) is a URL with a password, as `https://user:password@host/` is:
// plans show it as (sensitive), `plan --out` refuses it written in the YAML, import writes it as a
// ${VARIABLE}, and a message quoting it hides the value.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { Redaction } from '../../src/core/redaction.js'
import { urlParameterSpans } from '../../src/core/url.js'
import { holdsUrlPassword, isCredentialName, urlPasswords } from '../../src/schema/sensitivity.js'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, exampleSeed, tempdir } from '../e2e/helpers.js'

beforeAll(ensureBuilt, 120_000)

describe('a credential carried as a URL parameter', () => {
  it('is found by the parameter names that carry one by convention, not in any query', () => {
    expect(holdsUrlPassword('https://api.example.com/openapi.json?access_token=Abc123xyz')).toBe(true)
    expect(holdsUrlPassword('https://h/p?x=1&API_KEY=k9k9k9')).toBe(true)
    expect(holdsUrlPassword('https://b.s3.amazonaws.com/o?X-Amz-Algorithm=AWS4&X-Amz-Signature=deadbeef')).toBe(true)
    expect(holdsUrlPassword('https://a.blob.core.windows.net/c?sv=2020&sig=AbC%2Bd')).toBe(true)
    expect(holdsUrlPassword('https://h/cb#access_token=tok&state=1')).toBe(true)
    expect(holdsUrlPassword('/app;jsessionid=ABCDEF123')).toBe(true)
    expect(urlPasswords('see https://h/?token=T0kenValue&page=2 and https://u:pw99@h/')).toEqual(['T0kenValue', 'pw99'])
    // Other parameters, an empty value, a variable as the YAML writes it: no credential.
    expect(holdsUrlPassword('https://shop.example.com/search?q=shoes&page=2&sort=price')).toBe(false)
    // A credential word must be a word of the name: a search's keyword, a sort key, a product are none.
    expect(holdsUrlPassword('https://shop.example.com/search?keyword=shoes&sortkey=price&item=monkey')).toBe(false)
    expect(holdsUrlPassword('https://h/p?accessToken=T0k3n')).toBe(true)
    expect(holdsUrlPassword('https://h/p?apikey=K3y')).toBe(true)
    // Review round 26 (the day's diff): cut at an acronym's end and before a digit too, as the
    // comment of the words says names are cut; APIToken, XAPIKey, idToken2 were read as one word.
    expect(holdsUrlPassword('https://h/p?APIToken=T0k3n')).toBe(true)
    expect(holdsUrlPassword('https://h/p?XAPIKey=K3y')).toBe(true)
    expect(holdsUrlPassword('https://h/p?SASToken=S4s')).toBe(true)
    expect(holdsUrlPassword('https://h/p?refreshToken2=R3f')).toBe(true)
    expect(holdsUrlPassword('https://h/p?PAGESize=20&sortKEYword=x')).toBe(false)
    expect(holdsUrlPassword('https://h/p?token=')).toBe(false)
    expect(holdsUrlPassword('https://h/openapi.json?token=${SCHEMA_TOKEN}')).toBe(false)
    expect(holdsUrlPassword('a = b, token = c')).toBe(false)
    // The entries' rule is unchanged.
    expect(isCredentialName('X-Signature')).toBe(false)
    expect(isCredentialName('X-Api-Key')).toBe(true)
    // Read in one pass.
    expect(urlParameterSpans('?a'.repeat(100_000) + '=' + '='.repeat(100_000))).toEqual([])
  })

  it('the output step hides its value in any message, the URL staying readable', () => {
    const output = new Redaction('a-token-123456').output
    expect(output('GET https://h/openapi.json?token=OldSchemaTok&v=2 -> 404')).toBe('GET https://h/openapi.json?token=(sensitive)&v=2 -> 404')
    expect(output('"https://h/?api_key=K3yK3y" -> "https://h/?api_key=N3wK3y"')).toBe('"https://h/?api_key=(sensitive)" -> "https://h/?api_key=(sensitive)"')
  })

  it('plan, drift, plan --out and import do not show it', async () => {
    const seed = exampleSeed()
    const api = seed.targets!.find((t) => t.id === '5HnBvC3xZaQw')!
    const settings = (api.site as Record<string, Record<string, unknown>>).api_scan_settings!
    settings.api_schema_url = 'https://api.example.com/payments/openapi.json?token=OldSchemaTok3n'
    settings.api_login_url = 'https://api.example.com/auth/token?api_key=LiveApiK3y77'
    const promo = seed.targets!.find((t) => t.id === '9XcVbN5mQwEr')!
    promo.site!.url = 'https://promo.example.com/?access_token=PromoAcc3ss55'
    const em = await emulator({ seed })
    const dir = tempdir({
      'a.yaml': [
        'targets:',
        '  - id: 5HnBvC3xZaQw',
        '    api_scan_settings:',
        '      api_schema_url: "https://api.example.com/payments/openapi.json?token=${SCHEMA_TOKEN}"',
        '      api_login_url: https://api.example.com/auth/token?api_key=NewApiK3y88',
        '  - id: 9XcVbN5mQwEr',
        '    site:',
        '      url: https://promo.example.com/?access_token=NewAcc3ss66',
        '',
      ].join('\n'),
    })
    const secrets = ['OldSchemaTok3n', 'NewSchemaTok3n', 'LiveApiK3y77', 'NewApiK3y88', 'PromoAcc3ss55', 'NewAcc3ss66']
    const leaks = (text: string) => secrets.filter((secret) => text.includes(secret))
    const env = { SCHEMA_TOKEN: 'NewSchemaTok3n' }

    for (const format of ['text', 'json', 'markdown', 'github']) {
      const plan = await cli(em, dir, ['plan', '--format', format], env)
      expect(plan.code, plan.stderr).toBe(0)
      expect(leaks(plan.stdout + plan.stderr)).toEqual([])
    }
    const plan = await cli(em, dir, ['plan'], env)
    expect(plan.stdout).toContain('api_scan_settings.api_schema_url: (sensitive) -> (sensitive)')
    expect(plan.stdout).toContain('api_scan_settings.api_login_url: (sensitive) -> (sensitive)')
    expect(plan.stdout).toContain('site.url: (sensitive) -> (sensitive)')

    const drift = await cli(em, dir, ['drift'], env)
    expect(drift.code, drift.stderr).toBe(2)
    expect(leaks(drift.stdout + drift.stderr)).toEqual([])

    const saved = await cli(em, dir, ['plan', '--out', 'p.json'], env)
    expect(saved.code).toBe(1)
    expect(saved.stderr).toContain('a.yaml:5: target 5HnBvC3xZaQw: api_scan_settings.api_login_url (a URL with a credential parameter in it)')
    expect(saved.stderr).toContain('a.yaml:8: target 9XcVbN5mQwEr: site.url (a URL with a credential parameter in it)')
    expect(leaks(saved.stdout + saved.stderr)).toEqual([])

    const imported = await cli(em, dir, ['import', '--kind', 'target', '--id', '5HnBvC3xZaQw,9XcVbN5mQwEr', '--out', 'imported', '--secrets', 'reference'])
    expect(imported.code, imported.stderr).toBe(0)
    const written = readFileSync(join(dir, 'imported', 'targets.yaml'), 'utf8')
    expect(leaks(imported.stdout + imported.stderr + written)).toEqual([])
    expect(written).toContain('api_schema_url: ${TARGET_5HNBVC3XZAQW_API_SCAN_SETTINGS_API_SCHEMA_URL}')
    expect(written).toContain('url: ${TARGET_9XCVBN5MQWER_SITE_URL}')
    // The URLs without a credential are written as they are.
    expect(written).toContain('url: https://api.example.com/payments/')
  })
})
