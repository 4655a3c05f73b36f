import { join } from 'node:path'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Plan } from '../../src/plan/model.js'
import { KINDS } from '../../src/resources/index.js'
import type { JsonObject, KindName } from '../../src/core/types.js'
import type { Emulator } from '../../src/emulator/index.js'
import { emulator, exampleSeed, importRun, listedVariables, planRun, tempDir } from '../import/helpers.js'

/** The listed variables set to the values the service keeps; an item named by its index found by it. */
function secretEnv(em: Emulator, stderr: string): Record<string, string> {
  const env: Record<string, string> = {}
  for (const listed of listedVariables(stderr)) {
    let current: unknown = KINDS[listed.kind as KindName].project(em.get(listed.kind, listed.id) as JsonObject)
    for (const [, member, key] of listed.field.matchAll(/([^.[\]]+)|\[([^\]]*)\]/g)) {
      const here = current as Record<string, unknown> & unknown[]
      if (member !== undefined) current = here?.[member]
      else current = here.find((item) => (item as JsonObject).name === key) ?? here[Number(key.replace(/^#+/, ''))]
    }
    env[listed.variable] = current as string
  }
  return env
}

// Review 2, round 16: import names an item whose key holds a secret by its index; an item whose
// key is that index's text (a header named "0") was given the same place, so the secrets of both
// were given one variable, and the import could not plan clean.
describe('import then plan, with secrets quoted in list keys and texts', () => {
  it('plans clean, each secret its own variable, when another item is named as the index', async () => {
    const seed = exampleSeed()
    const staging = seed.targets!.find((t) => t.id === '7QwErTy2UiOp')!
    staging.site!.url = 'https://deploy:Zq9Kp7Wm42@staging.shop.example.com/'
    staging.site!.desc = 'pw Qx7w'
    staging.labels = [{ name: 'lbl-Zq9Kp7Wm42', color: 'red' }, { name: 'other', color: 'blue' }]
    const header = { allow_testing: false, authentication: false, authentication_secondary: false }
    staging.site!.headers = [
      { name: 'X-Zq9Kp7Wm42', value: 'header-secret-one', value_is_sensitive: true, ...header },
      { name: '0', value: 'header-secret-two', value_is_sensitive: true, ...header },
    ]
    const promo = seed.targets!.find((t) => t.id === '9XcVbN5mQwEr')!
    Object.assign(promo.site!, { has_basic_auth: true, basic_auth: { username: 'u', password: 'Rk3p', password_is_sensitive: true }, desc: 'the basic pw is Rk3p' })
    promo.labels = [{ name: 'Rk3p-team', color: 'red' }]
    const em = await emulator({ seed })
    const dir = tempDir()
    const run = await importRun(em, { kinds: ['target'], all: true, secrets: 'reference', out: dir })
    expect(run.code, run.err).toBe(0)

    const listed = listedVariables(run.err).map((l) => l.variable)
    expect(new Set(listed).size).toBe(listed.length)
    const written = readFileSync(join(dir, 'targets.yaml'), 'utf8')
    expect(written).not.toMatch(/Zq9Kp7Wm42|header-secret/i)
    const env = secretEnv(em, run.err)
    expect(Object.values(env)).toEqual(expect.arrayContaining(['header-secret-one', 'header-secret-two']))
    const plan = await planRun(em, dir, env, 'json')
    expect(plan.code === 0 ? [] : (JSON.parse(plan.out) as Plan).changes, plan.err).toEqual([])
  })
})
