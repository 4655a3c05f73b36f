import { describe, expect, it } from 'vitest'
import type { Plan } from '../../src/plan/model.js'
import type { EmulatorSeed } from '../../src/emulator/index.js'
import { emulator, exampleSeed, filesIn, importRun, planRun, secretEnv, tempDir, validateRun } from './helpers.js'

// Review round 17 (import): a list item holding a URL with a password (a blacklist entry) leaves
// its list out, but its password was never taken as a secret of the run: a description quoting it
// ("pw is …") was written in clear. A URL's password in a member was (secret()); in a list item too now.
const PASSWORD = 'Xk4vQ9mZ2pLw'

function seed(): EmulatorSeed {
  const seed = exampleSeed()
  const shop = seed.targets!.find((t) => t.id === '2DZkoZH8WMEM')!
  shop.site!.blacklist = [`https://deploy:${PASSWORD}@shop.example.com/admin/`]
  shop.site!.desc = `deploy pw is ${PASSWORD}`
  return seed
}

describe('import: a text quoting the password of a URL in a list', () => {
  for (const secrets of ['reference', 'omit'] as const) {
    it(`is not written in clear, and plans clean (--secrets ${secrets})`, async () => {
      const em = await emulator({ seed: seed() })
      const dir = tempDir()
      const run = await importRun(em, { all: true, out: dir, secrets })
      expect(run.code, run.err).toBe(0)
      expect([run.out, run.err, ...Object.values(filesIn(dir))].join('\n')).not.toContain(PASSWORD)
      const env = secretEnv(em, run.err)
      const plan = await planRun(em, dir, env, 'json')
      expect(plan.code === 0 ? [] : plan.code === 2 ? (JSON.parse(plan.out) as Plan).changes : plan.err).toEqual([])
      expect((await validateRun(dir, env)).code).toBe(0)
    })
  }
})
