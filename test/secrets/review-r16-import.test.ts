// Review round 16: import and the secrets a live resource holds, quoted where import writes them.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { emulator, exampleSeed, importRun, tempDir } from '../import/helpers.js'

/** Appears anywhere, in any case (a variable's name is upper-cased). */
const mentions = (text: string, secret: string) => text.toLowerCase().includes(secret.toLowerCase())

/** Imports every target into `out`: it succeeds, and neither the file nor what it printed mentions any of `secrets`; the file's text. */
async function importWithout(em: Parameters<typeof importRun>[0], secrets: readonly string[], out: string, mode: 'omit' | 'reference'): Promise<string> {
  const run = await importRun(em, { kinds: ['target'], all: true, secrets: mode, out })
  expect(run.code, run.err).toBe(0)
  const written = readFileSync(join(out, 'targets.yaml'), 'utf8')
  for (const secret of secrets) {
    expect(mentions(written, secret), written).toBe(false)
    expect(mentions(run.out + run.err, secret), run.err).toBe(false)
  }
  return written
}

describe('import: a secret quoted in a list key or a text', () => {
  it('a short secret held in clear (a password, a URL password) quoted in a text or a label name is left out, as plans hide it', async () => {
    const seed = exampleSeed()
    const staging = seed.targets!.find((t) => t.id === '7QwErTy2UiOp')!
    staging.site!.url = 'https://deploy:Qx7w@staging.shop.example.com/'
    staging.site!.desc = 'pw Qx7w'
    staging.labels = [{ name: 'lbl-Qx7w', color: 'red' }]
    const promo = seed.targets!.find((t) => t.id === '9XcVbN5mQwEr')!
    Object.assign(promo.site!, { has_basic_auth: true, basic_auth: { username: 'u', password: 'Rk3p', password_is_sensitive: true }, desc: 'the basic pw is Rk3p' })
    const em = await emulator({ seed })
    const dir = tempDir()
    for (const secrets of ['omit', 'reference'] as const) {
      await importWithout(em, ['Qx7w', 'Rk3p'], join(dir, secrets), secrets)
    }
  })

  it("a list key holding a secret (a header or label named after a live URL's password) is not spelt in a variable's name", async () => {
    const seed = exampleSeed()
    const staging = seed.targets!.find((t) => t.id === '7QwErTy2UiOp')!
    staging.site!.url = 'https://deploy:Zq9Kp7Wm42@staging.shop.example.com/'
    staging.labels = [{ name: 'lbl-Zq9Kp7Wm42', color: 'red' }]
    staging.site!.headers = [{ name: 'X-Zq9Kp7Wm42', value: 'v', value_is_sensitive: false, allow_testing: false, authentication: false, authentication_secondary: false }]
    const em = await emulator({ seed })
    const dir = tempDir()
    for (const secrets of ['omit', 'reference'] as const) {
      const written = await importWithout(em, ['Zq9Kp7Wm42'], join(dir, secrets), secrets)
      // The parts are still offered, by the item's place.
      expect(written).toContain('${TARGET_7QWERTY2UIOP_SITE_HEADERS_0_NAME}')
      expect(written).toContain('${TARGET_7QWERTY2UIOP_LABELS_0_NAME}')
    }
  })

  it("a list key holding a long secret in another letter case (a header X-zq9kp7wm42 with a URL password Zq9Kp7Wm42) is not spelt in a variable's name either", async () => {
    const seed = exampleSeed()
    const staging = seed.targets!.find((t) => t.id === '7QwErTy2UiOp')!
    staging.site!.url = 'https://deploy:Zq9Kp7Wm42@staging.shop.example.com/'
    staging.site!.headers = [{ name: 'X-zq9kp7wm42', value: 'v', value_is_sensitive: false, allow_testing: false, authentication: false, authentication_secondary: false }]
    const em = await emulator({ seed })
    const dir = tempDir()
    await importWithout(em, ['Zq9Kp7Wm42'], dir, 'reference')
  })
})
