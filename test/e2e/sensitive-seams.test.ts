// Issue 13, point 3: values from ${VAR} and credential entries leak through places other than a
// field's line: the display name, list items, a removed header's live value, and import. The real
// CLI, every format, the saved plan.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, exampleSeed, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const NAME = 'TopSecretName-5e1c'
const LABEL = 'LabelSecret-8d2f'
const PATHPART = 'PathSecret-0a7b'
const HEADER = 'HdrName-Hidden-3c9e'
const LIVE_AUTH = 'Bearer live-Auth-Secret-6b4d'
const LIVE_COOKIE = 'live-Cookie-Secret-2f8a'
const env = { NAME_VAR: NAME, LABEL_VAR: LABEL, PATH_VAR: PATHPART, HEADER_VAR: HEADER }
const SECRETS = [NAME, LABEL, PATHPART, HEADER, LIVE_AUTH, LIVE_COOKIE]

const CONFIG = [
  'targets:',
  '  - id: 2DZkoZH8WMEM',
  '    site:',
  '      name: ${NAME_VAR}',
  '      whitelist: ["https://shop.example.com/${PATH_VAR}/*", "https://shop.example.com/open/*"]',
  '      headers:',
  '        - name: X-${HEADER_VAR}',
  '          value: plain',
  '      cookies: []',
  '    labels: [production, "lbl-${LABEL_VAR}"]',
  '',
].join('\n')

/** The shop, holding an Authorization header and a session cookie (not flagged) that the YAML removes. */
function seed() {
  const data = exampleSeed()
  const shop = data.targets!.find((t) => t.id === '2DZkoZH8WMEM')!
  Object.assign(shop.site!, {
    headers: [{ name: 'Authorization', value: LIVE_AUTH, value_is_sensitive: false }],
    cookies: [{ name: 'sessionid', value: LIVE_COOKIE, value_is_sensitive: false }],
  })
  return data
}

const leaks = (text: string) => SECRETS.filter((secret) => text.includes(secret))

describe('no variable value and no credential entry value outside a field line', () => {
  it('plan in every format, and the saved plan', async () => {
    const em = await emulator({ seed: seed() })
    const dir = tempdir({ 'shop.yaml': CONFIG })

    const text = await cli(em, dir, ['plan'], env)
    expect(text.code, text.stderr).toBe(0)
    expect(leaks(text.stdout + text.stderr)).toEqual([])
    // Shown by its id alone; list items and a header name from variables as (sensitive).
    expect(text.stdout).toContain('~ target 2DZkoZH8WMEM\n')
    expect(text.stdout).toContain('    site.name: (sensitive) -> (sensitive)\n')
    expect(text.stdout).toContain('    site.headers[(sensitive)]: (none) -> {name: "(sensitive)", value: "plain"}\n')
    expect(text.stdout).toContain('    site.headers[Authorization]: {name: "Authorization", value: "(sensitive)"')
    expect(text.stdout).toContain('    site.cookies[sessionid]: {name: "sessionid", value: "(sensitive)"')
    // Sets as the items added and removed.
    expect(text.stdout).toContain('    site.whitelist:\n        + (sensitive)\n        + "https://shop.example.com/open/*"\n')
    expect(text.stdout).toMatch(/ {4}labels:\n {8}\+ \(sensitive\)\n/)

    const json = await cli(em, dir, ['plan', '--format', 'json'], env)
    expect(json.code, json.stderr).toBe(0)
    expect(leaks(json.stdout + json.stderr)).toEqual([])
    const document = JSON.parse(json.stdout) as { changes: Array<{ name: unknown; fields: Array<{ path: string; before: unknown; after: unknown }> }> }
    expect(document.changes[0]!.name).toBe('(sensitive)')
    const byPath = new Map(document.changes[0]!.fields.map((field) => [field.path, field]))
    expect(byPath.get('site.headers[Authorization]')?.before).toMatchObject({ name: 'Authorization', value: '(sensitive)' })
    expect(byPath.get('labels')?.after).toContain('(sensitive)')
    // JSON keeps the contract's before/after shape for sets: two whole lists.
    expect(Array.isArray(byPath.get('site.whitelist')?.before)).toBe(true)

    const [markdown, github] = await Promise.all(['markdown', 'github'].map((format) => cli(em, dir, ['plan', '--format', format], env)))
    for (const run of [markdown!, github!]) {
      expect(run.code, run.stderr).toBe(0)
      expect(leaks(run.stdout + run.stderr)).toEqual([])
    }
    expect(markdown!.stdout).toContain('<summary>~ target 2DZkoZH8WMEM (')
    expect(markdown!.stdout).toContain('| <code>(sensitive)</code> |')
    expect(markdown!.stdout).toContain('<code>+ (sensitive)')
    expect(github!.stdout).toContain('title=scansync plan%3A target 2DZkoZH8WMEM::')
    expect(github!.stdout).toContain('::site.whitelist:%0A+ (sensitive)%0A+ "https://shop.example.com/open/*"')

    const saved = await cli(em, dir, ['plan', '--out', 'saved.json'], env)
    expect(saved.code, saved.stderr).toBe(0)
    expect(leaks(saved.stdout + saved.stderr + readFileSync(join(dir, 'saved.json'), 'utf8'))).toEqual([])
  })

  it('import writes a credential-named header or cookie as a variable, never its value', async () => {
    const em = await emulator({ seed: seed() })
    const dir = tempdir()
    const run = await cli(em, dir, ['import', '--kind', 'target', '--id', '2DZkoZH8WMEM'])
    expect(run.code, run.stderr).toBe(0)
    expect(leaks(run.stdout + run.stderr)).toEqual([])
    expect(run.stdout).toContain('${TARGET_2DZKOZH8WMEM_SITE_HEADERS_AUTHORIZATION_VALUE}')
    expect(run.stdout).toContain('${TARGET_2DZKOZH8WMEM_SITE_COOKIES_SESSIONID_VALUE}')
  })
})
