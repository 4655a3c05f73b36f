import { describe, expect, it } from 'vitest'
import type { Plan } from '../../src/plan/model.js'
import type { EmulatorSeed } from '../../src/emulator/index.js'
import { emulator, exampleSeed, filesIn, importRun, planRun, secretEnv, tempDir, validateRun } from './helpers.js'

// Review round 17, last review: a variable's name joins a field's keys with `_`
// (TARGET_…_SITE_BASIC_AUTH_PASSWORD) and a printed field joins them with `.`: a basic-auth
// password `Auth_Password` or `Login_Password` is part of no single key, so isConfigurationWord
// let it into the output step's redaction, which rewrote the variables to
// ${TARGET_…_BASIC_(sensitive)}, and the import did not validate.
function seed(password: string): EmulatorSeed {
  const seed = exampleSeed()
  const shop = seed.targets!.find((t) => t.id === '2DZkoZH8WMEM')!
  Object.assign(shop.site!, { has_basic_auth: true, basic_auth: { username: 'u', password, password_is_sensitive: true }, whitelist: ['a.example.com'] })
  shop.blackout_period = { begin: '01:00', cease: '02:00', weekdays: [1], timezone: 'UTC', enabled: true } as never
  seed.assets![0].comment = `the shop's password is ${password}`
  return seed
}

describe('import: a secret made of pieces of the configuration\'s keys, across two of them', () => {
  for (const password of ['Auth_Password', 'Login_Password', 'Settings_Api_Login', 'Auth.Password']) {
    it(`writes files that validate and plan clean, with no value quoting it (${password})`, async () => {
      const em = await emulator({ seed: seed(password) })
      const dir = tempDir()
      const run = await importRun(em, { all: true, out: dir })
      expect(run.code, run.err).toBe(0)
      const files = Object.values(filesIn(dir)).join('\n')
      expect(files + run.err).not.toContain('(sensitive)')
      expect(files).not.toContain(`password is`)
      expect(files + run.out + run.err).not.toContain(password)
      const env = secretEnv(em, run.err)
      const valid = await validateRun(dir, env)
      expect(valid.code, valid.out + valid.err).toBe(0)
      const plan = await planRun(em, dir, env, 'json')
      expect(plan.code === 0 ? [] : plan.code === 2 ? (JSON.parse(plan.out) as Plan).changes : plan.err).toEqual([])
    })
  }
})
