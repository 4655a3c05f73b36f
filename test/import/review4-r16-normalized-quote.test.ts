import { describe, expect, it } from 'vitest'
import type { Plan } from '../../src/plan/model.js'
import { emulator, exampleSeed, filesIn, importRun, planRun, secretEnv, tempDir, validateRun } from './helpers.js'

// Review 4, round 16: a text quoting a short secret the service holds in clear is taken as a
// secret. A time of day the service writes HH:MM:SS ("02:00:00", quoting the basic-auth password
// "02:00") was written as a variable, which, set to the value the service holds, the configuration
// refuses (it writes HH:MM): validate and plan failed. Such a value is left out, said why.
describe('import: a value quoting a secret in a form the configuration writes otherwise', () => {
  it('is left out, so that the import validates and plans clean', async () => {
    const seed = exampleSeed()
    const promo = seed.targets!.find((t) => t.id === '9XcVbN5mQwEr')!
    Object.assign(promo.site!, { has_basic_auth: true, basic_auth: { username: 'u', password: '02:00', password_is_sensitive: true } })
    promo.blackout_period = { begin: '02:00:00', cease: '04:30:00', weekdays: [1, 2], timezone: 'UTC', enabled: true }
    const em = await emulator({ seed })
    const dir = tempDir()
    const run = await importRun(em, { all: true, out: dir })
    expect(run.code, run.err).toBe(0)
    expect(Object.values(filesIn(dir)).join('\n') + run.out + run.err).not.toContain('02:00')
    const env = secretEnv(em, run.err)
    const valid = await validateRun(dir, env)
    expect(valid.code, valid.out + valid.err).toBe(0)
    const plan = await planRun(em, dir, env, 'json')
    expect(plan.code === 0 ? [] : plan.code === 2 ? (JSON.parse(plan.out) as Plan).changes : plan.err).toEqual([])
    expect(plan.code).toBe(0)
    expect(run.err).toContain('target 9XcVbN5mQwEr blackout_period.begin: it quotes a secret')
  })
})
