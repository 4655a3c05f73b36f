// Review round 26 (design.md's semantics, promise by promise): "URLs: scheme and host lower-cased,
// default port dropped, empty path is /" held for the site's URLs (url, form_login_url,
// check_session_url) but not for the two URLs of an API target's settings: the login request's
// URL and the schema's URL as the service held them (`https://api.example.com/auth/token`),
// written `HTTPS://API.Example.com:443/auth/token` in YAML, planned as a change every run, and
// an apply of it was never followed by an empty plan on a service that stores URLs in their
// canonical form. They now compare as URLs, as the site's do (null and "" stay equal).
import { expect, it } from 'vitest'
import { cli, emulator, exampleSeed, tempdir } from './helpers.js'

it('an API target’s login and schema URLs compare as URLs', { timeout: 60_000 }, async () => {
  const seed = exampleSeed()
  const api = seed.targets!.find((t) => t.id === '5HnBvC3xZaQw')! as { site: Record<string, unknown>; api_scan_settings?: Record<string, unknown> }
  const settings = (api.api_scan_settings ?? (api.site.api_scan_settings as Record<string, unknown>)) as Record<string, unknown>
  settings.api_login_url = 'https://api.example.com/auth/token'
  settings.api_schema_url = 'https://api.example.com/payments/openapi.json'
  const em = await emulator({ seed })
  const same = tempdir({
    'targets.yaml':
      'targets:\n  - id: 5HnBvC3xZaQw\n    api_scan_settings:\n' +
      '      api_login_url: "HTTPS://API.Example.com:443/auth/token"\n' +
      '      api_schema_url: "https://API.EXAMPLE.COM:443/payments/openapi.json"\n',
  })
  const result = await cli(em, same, ['plan', '--detailed-exitcode'])
  expect(result.stdout).not.toContain('api_login_url')
  expect(result.stdout).not.toContain('api_schema_url')
  expect(result.code, result.stdout + result.stderr).toBe(0)

  // Another URL is still a change, shown as written and as held.
  const other = tempdir({ 'targets.yaml': 'targets:\n  - id: 5HnBvC3xZaQw\n    api_scan_settings:\n      api_login_url: "https://api.example.com/auth/v2/token"\n' })
  const changed = await cli(em, other, ['plan', '--detailed-exitcode'])
  expect(changed.code).toBe(2)
  expect(changed.stdout).toContain('api_scan_settings.api_login_url: "https://api.example.com/auth/token" -> "https://api.example.com/auth/v2/token"')

  // null and "" stay equal for the schema's URL.
  const empty = exampleSeed()
  const apiEmpty = empty.targets!.find((t) => t.id === '5HnBvC3xZaQw')! as { site: Record<string, unknown>; api_scan_settings?: Record<string, unknown> }
  ;((apiEmpty.api_scan_settings ?? apiEmpty.site.api_scan_settings) as Record<string, unknown>).api_schema_url = null
  const em2 = await emulator({ seed: empty })
  const blank = tempdir({ 'targets.yaml': 'targets:\n  - id: 5HnBvC3xZaQw\n    api_scan_settings:\n      api_schema_url: ""\n' })
  expect((await cli(em2, blank, ['plan', '--detailed-exitcode'])).code).toBe(0)
})
