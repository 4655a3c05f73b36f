import { describe, expect, it } from 'vitest'
import type { EmulatorSeed } from '../../src/emulator/index.js'
import { emulator, exampleSeed, importRoundTrip } from './helpers.js'

// Review round 17 (import): a secret the service holds in clear in a part import leaves out was
// never met, so a text quoting it elsewhere was written in clear:
// - in the api_scan_settings of a web target (written only for an API): the target's own
//   description, an asset's comment (upper-cased) quoting it. Import now knows every secret a
//   resource holds, as plan's output step does; the quoting text is a secret;
// - the password of a URL in a list item (a blacklist entry, whose list is left out): a description
//   ("pw is …") quoting it. A URL's password in a member was a secret (secret()); in a list item too now.
const TOKEN_LEFT_OUT = 'Tok-9fQ2xLm7Wd'
const URL_PASSWORD = 'Xk4vQ9mZ2pLw'

/** The example account with the shop target changed by `change`. */
function seedWith(change: (shop: NonNullable<EmulatorSeed['targets']>[number], seed: EmulatorSeed) => void): EmulatorSeed {
  const seed = exampleSeed()
  change(seed.targets!.find((t) => t.id === '2DZkoZH8WMEM')!, seed)
  return seed
}

const CASES: Array<[string, string, () => EmulatorSeed]> = [
  ['a secret of a part left out', TOKEN_LEFT_OUT, () => seedWith((shop, seed) => {
    shop.api_scan_settings = { custom_api_parameters: [{ name: 'api_token', value: TOKEN_LEFT_OUT, value_is_sensitive: true }] } as never
    shop.site!.desc = `token is ${TOKEN_LEFT_OUT}`
    seed.assets![0].comment = `shop token ${TOKEN_LEFT_OUT.toUpperCase()}`
  })],
  ['the password of a URL in a list', URL_PASSWORD, () => seedWith((shop) => {
    shop.site!.blacklist = [`https://deploy:${URL_PASSWORD}@shop.example.com/admin/`]
    shop.site!.desc = `deploy pw is ${URL_PASSWORD}`
  })],
]

describe.each(CASES)('import: a text quoting %s', (_, secret, seed) => {
  for (const secrets of ['reference', 'omit'] as const) {
    it(`is not written in clear, and plans clean (--secrets ${secrets})`, async () => {
      const { run, everything, changes, valid } = await importRoundTrip(await emulator({ seed: seed() }), { secrets })
      expect(run.code, run.err).toBe(0)
      for (const form of [secret, secret.toLowerCase(), secret.toUpperCase()]) expect(everything).not.toContain(form)
      expect(changes).toEqual([])
      expect(valid.code).toBe(0)
    })
  }
})
