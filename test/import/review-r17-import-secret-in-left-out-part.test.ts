import { describe, expect, it } from 'vitest'
import type { Plan } from '../../src/plan/model.js'
import type { EmulatorSeed } from '../../src/emulator/index.js'
import { emulator, exampleSeed, filesIn, importRun, planRun, secretEnv, tempDir, validateRun } from './helpers.js'

// Review round 17 (import): a secret the service holds in clear in a part import leaves out (the
// api_scan_settings of a web target, written only for an API) was never met, so a text quoting it
// elsewhere (the target's own description, an asset's comment) was written in clear. Import now
// knows every secret a resource holds, as plan's output step does; the quoting text is a secret.
const SECRET = 'Tok-9fQ2xLm7Wd'

function seed(): EmulatorSeed {
  const seed = exampleSeed()
  const shop = seed.targets!.find((t) => t.id === '2DZkoZH8WMEM')!
  shop.api_scan_settings = { custom_api_parameters: [{ name: 'api_token', value: SECRET, value_is_sensitive: true }] } as never
  shop.site!.desc = `token is ${SECRET}`
  seed.assets![0].comment = `shop token ${SECRET.toUpperCase()}`
  return seed
}

describe('import: a text quoting a secret of a part left out', () => {
  for (const secrets of ['reference', 'omit'] as const) {
    it(`is not written in clear, and plans clean (--secrets ${secrets})`, async () => {
      const em = await emulator({ seed: seed() })
      const dir = tempDir()
      const run = await importRun(em, { all: true, out: dir, secrets })
      expect(run.code, run.err).toBe(0)
      const everything = [run.out, run.err, ...Object.values(filesIn(dir))].join('\n')
      for (const form of [SECRET, SECRET.toLowerCase(), SECRET.toUpperCase()]) expect(everything).not.toContain(form)
      const env = secretEnv(em, run.err)
      const plan = await planRun(em, dir, env, 'json')
      expect(plan.code === 0 ? [] : plan.code === 2 ? (JSON.parse(plan.out) as Plan).changes : plan.err).toEqual([])
      expect((await validateRun(dir, env)).code).toBe(0)
    })
  }
})
