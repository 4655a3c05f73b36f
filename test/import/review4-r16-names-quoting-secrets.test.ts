import { describe, expect, it } from 'vitest'
import type { Plan } from '../../src/plan/model.js'
import type { EmulatorSeed } from '../../src/emulator/index.js'
import { emulator, exampleSeed, filesIn, importRun, planRun, secretEnv, tempDir, validateRun } from './helpers.js'

// Review 4, round 16: import refers to a team or an agent by its name where the name is unique,
// after the check that takes a text quoting a live secret as a secret. A team or agent named after
// a target's short basic-auth password was written in clear (teams: [{name: team-Rk3p}]); one
// named after a URL's password was written as the output step's placeholder, which no team or
// agent is named, so the import could not plan. Such a reference keeps its id.
function seedWith(secret: 'short' | 'url', who: 'team' | 'agent'): { seed: EmulatorSeed; value: string } {
  const seed = exampleSeed()
  const promo = seed.targets!.find((t) => t.id === '9XcVbN5mQwEr')!
  const value = secret === 'short' ? 'Rk3p' : 'Zq9Kp7Wm42'
  if (secret === 'short') Object.assign(promo.site!, { has_basic_auth: true, basic_auth: { username: 'u', password: value, password_is_sensitive: true } })
  else promo.site!.url = `https://deploy:${value}@promo.example.com/`
  if (who === 'team') seed.teams!.find((t) => t.id === 'TmQ4Ww7Ee2Rr')!.name = `team-${value}`
  else seed.agents!.find((a) => a.id === '2PqRsT6uVwXy')!.name = `agent-${value}`
  return { seed, value }
}

describe('import: a team or agent named after a live secret', () => {
  for (const secret of ['short', 'url'] as const) {
    for (const who of ['team', 'agent'] as const) {
      it(`is referred to by id, and plans clean (${who}, ${secret} secret)`, async () => {
        const { seed, value } = seedWith(secret, who)
        const em = await emulator({ seed })
        const dir = tempDir()
        const run = await importRun(em, { all: true, out: dir })
        expect(run.code, run.err).toBe(0)
        const files = filesIn(dir)
        expect(Object.values(files).join('\n') + run.out + run.err).not.toContain(value)
        expect(Object.values(files).join('\n')).not.toContain('(sensitive)')
        const env = secretEnv(em, run.err)
        const plan = await planRun(em, dir, env, 'json')
        expect(plan.code === 0 ? [] : plan.code === 2 ? (JSON.parse(plan.out) as Plan).changes : plan.err).toEqual([])
        expect(plan.code).toBe(0)
        expect((await validateRun(dir, env)).code).toBe(0)
      })
    }
  }
})
