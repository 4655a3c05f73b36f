// A configuration full of secrets, and a service holding some: shared by the secret sweeps
// (test/e2e/secrets.test.ts, test/hardening/secrets.test.ts).
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { exampleConfig, exampleSeed } from './helpers.js'

/** Secrets from the environment (no fallbacks in this configuration). */
export const ENV_SECRETS = {
  SHOP_LOGIN_PASSWORD: 'env-Login-Secret-71c3',
  SHOP_BASIC_AUTH_PASSWORD: 'env-Basic-Secret-4a9d',
  PAYMENTS_CLIENT_SECRET: 'env-Client-Secret-0be8',
  SHOP_API_KEY: 'env-Header-Secret-5f21',
}
/** Secrets written in the YAML itself, sensitive by their flag or by their name. */
export const LITERAL_SECRETS = ['literal-Cookie-Secret-93ad', 'LITERALOTPSECRET2X7Q']
/** What the service held before the apply (it answers them in clear when it does not obfuscate). */
export const SEED_SECRETS = ['demo-login-password', 'demo-basic-auth-password', 'demo-client-secret', 'seed-Header-Secret-11aa', 'seed-Otp-Secret-77']

export const lineIn = (file: string, needle: string): number => readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(needle)) + 1

export function secretConfig(): string {
  const dir = exampleConfig()
  for (const file of ['targets/shop.yaml', 'targets/payments-api.yaml']) {
    const path = join(dir, file)
    writeFileSync(path, readFileSync(path, 'utf8').replace(/:-demo-[a-z-]+\}/g, '}'))
  }
  const shop = join(dir, 'targets', 'shop.yaml')
  writeFileSync(
    shop,
    readFileSync(shop, 'utf8').replace(
      '      headers:\n        - name: X-Scanner\n          value: scansync\n',
      [
        '      headers:',
        '        - name: X-Scanner',
        '          value: scansync',
        '        - name: X-Api-Key',
        '          value: ${SHOP_API_KEY}',
        '      cookies:',
        '        - name: session',
        `          value: ${LITERAL_SECRETS[0]}`,
        '          value_is_sensitive: true',
        '      has_otp: true',
        `      otp_secret: ${LITERAL_SECRETS[1]}`,
        '',
      ].join('\n'),
    ),
  )
  return dir
}

export function seed() {
  const data = exampleSeed()
  const shop = data.targets!.find((t) => t.id === '2DZkoZH8WMEM')!
  Object.assign(shop.site!, {
    headers: [...(shop.site!.headers ?? []), { name: 'X-Api-Key', value: SEED_SECRETS[3], value_is_sensitive: true }],
    otp_secret: SEED_SECRETS[4],
  })
  return data
}
