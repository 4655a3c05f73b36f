import { describe, expect, it } from 'vitest'
import type { EmulatorSeed } from '../../src/emulator/index.js'
import { emulator, exampleSeed, importRoundTrip } from './helpers.js'

// Review round 17 (import): the output step replaces a secret in any letter case (caseForms), and
// import wrote its files through it, keys and all: a basic-auth password that is one of the
// configuration's words in another case (Whitelist, Timezone, Api_Scan_Settings) turned keys into
// `(sensitive):` and variables into ${TARGET_…_(sensitive)_…}, and the import did not validate.
// A value quoting such a secret is still taken as a secret.
// The last review: a variable's name joins a field's keys with `_` (TARGET_…_SITE_BASIC_AUTH_PASSWORD)
// and a printed field joins them with `.`: a password `Auth_Password` or `Login_Password` is part of
// no single key, so it was let into the output step's redaction, which rewrote the variables to
// ${TARGET_…_BASIC_(sensitive)}, and the import did not validate.
function seed(password: string): EmulatorSeed {
  const seed = exampleSeed()
  const shop = seed.targets!.find((t) => t.id === '2DZkoZH8WMEM')!
  Object.assign(shop.site!, { has_basic_auth: true, basic_auth: { username: 'u', password, password_is_sensitive: true }, whitelist: ['a.example.com'] })
  shop.blackout_period = { begin: '01:00', cease: '02:00', weekdays: [1], timezone: 'UTC', enabled: true } as never
  seed.assets![0].comment = `the shop's password is ${password}`
  return seed
}

describe('import: a secret that is one of the configuration words in another case, or made of pieces of two keys', () => {
  const oneKey = ['Whitelist', 'Timezone', 'WEEKDAYS', 'Basic_Auth', 'Api_Scan_Settings']
  const acrossKeys = ['Auth_Password', 'Login_Password', 'Settings_Api_Login', 'Auth.Password']
  for (const password of [...oneKey, ...acrossKeys]) {
    it(`writes files that validate and plan clean, with no value quoting it (${password})`, async () => {
      const { run, files, everything, changes, valid } = await importRoundTrip(await emulator({ seed: seed(password) }))
      expect(run.code, run.err).toBe(0)
      expect(files + run.err).not.toContain('(sensitive)')
      expect(files).not.toContain(`password is`)
      expect(everything).not.toContain(password)
      expect(valid.code, valid.out + valid.err).toBe(0)
      expect(changes).toEqual([])
    })
  }
})
