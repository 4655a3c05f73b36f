import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseBlockYaml } from '../../src/config/block-yaml.js'
import { parseYamlFile } from '../../src/config/read-yaml.js'
import type { Plan } from '../../src/plan/model.js'
import { randomTargetsSeed, sensitiveValues } from './arbitraries.js'
import { applyRun, emulator, exampleSeed, filesIn, importRun, listedVariables, planRun, secretEnv, tempDir, validateRun } from './helpers.js'

/**
 * The promise of import: what it writes plans clean the moment it is written. Secrets the service
 * answers in clear are compared for real (the listed variables set to the values the service
 * keeps); secrets it hides are tested on their own below, since no tool can read them back.
 */
describe('import then plan', () => {
  it('plans clean for every resource of the example seed, validates, and gives the same bytes twice', async () => {
    const em = await emulator()
    const dir = tempDir()
    const first = await importRun(em, { all: true, out: dir })
    expect(first.err).not.toMatch(/^Error/m)
    expect(first.code).toBe(0)
    const files = filesIn(dir)
    expect(Object.keys(files)).toEqual(['agents.yaml', 'assets.yaml', 'targets.yaml'])
    // What import writes takes the loader's fastest way (src/config/block-yaml.ts), and reads as `yaml` reads it.
    for (const [name, text] of Object.entries(files)) {
      expect(parseBlockYaml(text)?.data).toStrictEqual(parseYamlFile(name, Buffer.from(text), { fastPath: false }).parsed?.data)
    }

    const env = secretEnv(em, first.err)
    expect(Object.keys(env).sort()).toEqual([
      'TARGET_2DZKOZH8WMEM_SITE_BASIC_AUTH_PASSWORD',
      'TARGET_2DZKOZH8WMEM_SITE_FORM_LOGIN_PASSWORD_VALUE',
      'TARGET_5HNBVC3XZAQW_API_SCAN_SETTINGS_API_LOGIN_PAYLOAD',
    ])
    const plan = await planRun(em, dir, env)
    expect(plan.out + plan.err).toContain('Plan: 0 to change, 11 unchanged.')
    expect(plan.code).toBe(0)

    const valid = await validateRun(dir, env)
    expect(valid.out).toContain('Valid: 3 files, 4 targets, 4 assets, 3 agents.')
    expect(valid.code).toBe(0)

    const again = await importRun(em, { all: true, out: dir, force: true })
    expect(again.code).toBe(0)
    expect(filesIn(dir)).toEqual(files)
    expect(again.err).toBe(first.err)

    // One kind at a time, or by id, gives the same resources as --all.
    const byId = await importRun(em, { kinds: ['target'], ids: ['7QwErTy2UiOp', '2DZkoZH8WMEM', '5HnBvC3xZaQw', '9XcVbN5mQwEr'] }, dir)
    expect(byId.out).toBe(files['targets.yaml'])
  })

  it('plans clean for 200 varied targets (web and API, labels, blackout periods, headers, agents, secrets)', async () => {
    const seed = randomTargetsSeed(200)
    const em = await emulator({ seed })
    const dir = tempDir()
    const imported = await importRun(em, { kinds: ['target'], all: true, out: dir })
    expect(imported.err).not.toMatch(/^Error/m)
    expect(imported.code).toBe(0)

    const env = secretEnv(em, imported.err)
    expect(Object.keys(env).length).toBeGreaterThan(100)
    const plan = await planRun(em, dir, env, 'json')
    const changes = plan.code === 0 ? [] : (JSON.parse(plan.out) as Plan).changes
    expect(changes, plan.err).toEqual([])
    expect(plan.code).toBe(0)
    expect((await validateRun(dir, env)).code).toBe(0)

    const text = readFileSync(join(dir, 'targets.yaml'), 'utf8')
    for (const value of sensitiveValues(seed)) {
      expect(text).not.toContain(value)
      expect(imported.err).not.toContain(value)
    }
    const again = await importRun(em, { kinds: ['target'], all: true })
    expect(again.out.split('\n').slice(1)).toEqual(text.split('\n').slice(1))
  })
})

describe('import --include-defaults then plan', () => {
  it('plans clean too, with every writable field written', async () => {
    const random = randomTargetsSeed(60, 11)
    const seed = { ...exampleSeed(), agents: [...exampleSeed().agents!, ...random.agents!], targets: [...exampleSeed().targets!, ...random.targets!] }
    const em = await emulator({ seed })
    const dir = tempDir()
    const imported = await importRun(em, { all: true, out: dir, includeDefaults: true })
    expect(imported.code).toBe(0)
    const targets = filesIn(dir)['targets.yaml']
    for (const field of ['fail_fast: true', 'report_fileformat: pdf', 'type: single', 'otp_type: totp', 'logout_condition: any', 'scanning_agent: null']) expect(targets).toContain(field)
    const plan = await planRun(em, dir, secretEnv(em, imported.err), 'json')
    expect(plan.code === 0 ? [] : (JSON.parse(plan.out) as Plan).changes, plan.err).toEqual([])
  })
})

describe('secrets the service hides (OBFUSCATED_…)', () => {
  it('writes a reference with a comment where the request needs the value, leaves the rest out, and plans nothing else', async () => {
    const em = await emulator({ obfuscate: true })
    const dir = tempDir()
    const imported = await importRun(em, { all: true, out: dir })
    expect(imported.code).toBe(0)
    const targets = filesIn(dir)['targets.yaml']
    expect(targets).toContain('#   TARGET_2DZKOZH8WMEM_SITE_BASIC_AUTH_PASSWORD: site.basic_auth.password (the service hides it')
    expect(targets).toContain('password: ${TARGET_2DZKOZH8WMEM_SITE_BASIC_AUTH_PASSWORD}')
    expect(targets).toContain('# Left out: api_scan_settings.api_login_payload (the service hides it)')
    expect(targets).not.toMatch(/^ +api_login_payload:/m)
    expect(targets).not.toContain('OBFUSCATED_')
    const listed = listedVariables(imported.err).map((l) => l.variable)
    expect(listed).toEqual(['TARGET_2DZKOZH8WMEM_SITE_FORM_LOGIN_PASSWORD_VALUE', 'TARGET_2DZKOZH8WMEM_SITE_BASIC_AUTH_PASSWORD'])
    expect(imported.err).toContain('Left out because the service hides them')

    // The variables set to the real values: the plan holds those two fields, "not yet tracked", and nothing else.
    const env = secretEnv(em, imported.err)
    const plan = await planRun(em, dir, env, 'json')
    expect(plan.code).toBe(2)
    const fields = (JSON.parse(plan.out) as Plan).changes.flatMap((change) => change.fields.map((field) => ({ id: change.id, ...field })))
    expect(fields.map(({ id, path, reason, sensitive }) => ({ id, path, reason, sensitive }))).toEqual([
      { id: '2DZkoZH8WMEM', path: 'site.form_login[password].value', reason: 'not yet tracked', sensitive: true },
      { id: '2DZkoZH8WMEM', path: 'site.basic_auth.password', reason: 'not yet tracked', sensitive: true },
    ])
    // One apply records them; from then on the import plans clean.
    expect((await applyRun(em, dir, env)).code).toBe(0)
    expect((await planRun(em, dir, env)).code).toBe(0)
  })

  it('never prints or writes a secret, hidden or in clear', async () => {
    for (const obfuscate of [false, true]) {
      const seed = { ...exampleSeed(), ...randomTargetsSeed(40, 7) }
      const em = await emulator({ seed, obfuscate })
      const dir = tempDir()
      const written = await importRun(em, { kinds: ['target'], all: true, out: dir, debug: true })
      const printed = await importRun(em, { kinds: ['target'], all: true, includeDefaults: true })
      expect(written.code + printed.code).toBe(0)
      const everything = [written.out, written.err, printed.out, printed.err, ...Object.values(filesIn(dir))].join('\n')
      expect(sensitiveValues(seed).length).toBeGreaterThan(20)
      for (const value of sensitiveValues(seed)) expect(everything).not.toContain(value)
      expect(everything).not.toContain('OBFUSCATED_')
      await em.close()
    }
  })
})
