import { describe, expect, it } from 'vitest'
import { emulator, exampleSeed, importRoundTrip } from './helpers.js'

// Review round 26 (importing an account ten years old): a hand-edited list entry with an empty
// name (a cookie, a header, a login-form field or an API parameter named "") is one the
// configuration cannot declare (its `name` must not be empty). Import left the whole list out
// without a word; and when the list also held a hidden secret, the comment told the user to "add
// under site.cookies[session]:" a `value` line, where no such list or entry was written. Now the
// list is left out with a comment and a line on stderr saying why, as for two entries of one name.
const entry = (name: string, value: string, sensitive = false) => ({ name, value, value_is_sensitive: sensitive, allow_testing: false, authentication: false, authentication_secondary: false })

describe('import: a live list entry with an empty name', () => {
  for (const obfuscate of [false, true]) {
    it(`is left out with a comment and a line on stderr, and plans clean (obfuscate=${obfuscate})`, async () => {
      const seed = exampleSeed()
      const shop = seed.targets!.find((t) => t.id === '7QwErTy2UiOp')!
      shop.site!.cookies = [entry('session', 'Ck-secret-5f1e', true), entry('', 'no name')]
      const api = seed.targets!.find((t) => t.id === '5HnBvC3xZaQw')! as unknown as { site: { api_scan_settings: { custom_api_parameters: unknown[] } } }
      api.site.api_scan_settings.custom_api_parameters = [{ name: '', value: 'x', value_is_sensitive: false }, { name: 'tenant', value: 'acme', value_is_sensitive: false }]
      const { run, files, changes, valid } = await importRoundTrip(await emulator({ seed, obfuscate }), { secrets: 'omit' })
      expect(run.code, run.err).toBe(0)
      expect(files).toContain('# Left out: site.cookies (the service holds an entry with an empty name, which a configuration cannot declare); it stays as it is on the service')
      expect(files).toContain('# Left out: api_scan_settings.custom_api_parameters (the service holds an entry with an empty name, which a configuration cannot declare); it stays as it is on the service')
      expect(files).not.toContain('add under site.cookies[session]')
      expect(run.err).toContain('  target 7QwErTy2UiOp site.cookies: the service holds an entry with an empty name, which a configuration cannot declare')
      expect(run.err).toContain('  target 5HnBvC3xZaQw api_scan_settings.custom_api_parameters: the service holds an entry with an empty name')
      expect(changes).toEqual([])
      expect(valid.code, valid.err).toBe(0)
    })
  }
})
