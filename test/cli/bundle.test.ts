// The CLI runs from dist/bundle/ (scripts/bundle.js: one CommonJS file with its code cache instead of ~100 ES modules).
// Its modules must find their files as in dist/: the precompiled validators (else Ajv would
// compile every schema at each start, silently slower), schemas/, package.json, the manifest.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { collectOutput, ROOT } from '../helpers/cli.js'
import { emulator, envFor, exampleConfig, tempdir } from '../e2e/helpers.js'

const BUNDLE = join(ROOT, 'dist', 'bundle')
/** Reports, at exit, whether the precompiled validators and Ajv's compiler were loaded. */
const PROBE = `data:text/javascript,${encodeURIComponent(`
import { createRequire } from 'node:module'
const cache = createRequire(process.cwd() + '/').cache
process.on('exit', () => {
  const keys = Object.keys(cache)
  process.stderr.write(JSON.stringify({ precompiled: keys.some((k) => k.endsWith('dist/schema/validators.cjs')), compiler: keys.some((k) => k.includes('ajv/dist/core.js')), policyAjv: keys.some((k) => k.endsWith('dist/schema/ajv.bundle.cjs')) }))
})`)}`

/** Reports, at exit, whether oclif's and undici's bundled files were loaded, and which files of them as installed. */
const OCLIF_PROBE = `data:text/javascript,${encodeURIComponent(`
import { createRequire } from 'node:module'
const cache = createRequire(process.cwd() + '/').cache
process.on('exit', () => {
  const keys = Object.keys(cache)
  process.stderr.write(JSON.stringify({ bundled: keys.some((k) => k.endsWith('dist/cli/oclif.bundle.cjs')), installed: keys.filter((k) => k.includes('node_modules/@oclif/core/')).map((k) => k.replace(/.*node_modules\\//, '')), undici: keys.filter((k) => k.includes('node_modules/undici/')).length, undiciBundled: keys.some((k) => k.endsWith('dist/client/undici.bundle.cjs')) }))
})`)}`

/** Reports, at exit, how many times String.prototype.localeCompare was called (its first call builds ICU's collator). */
const LOCALE_PROBE = `data:text/javascript,${encodeURIComponent(`
const localeCompare = String.prototype.localeCompare
let calls = 0
String.prototype.localeCompare = function (...args) { calls++; return localeCompare.apply(this, args) }
process.on('exit', () => process.stderr.write(JSON.stringify({ localeCompare: calls })))`)}`

describe('the bundle', () => {
  it('is what oclif runs, and holds each command', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
    expect(pkg.oclif.commands).toBe('./dist/bundle/commands')
    const own = readdirSync(join(ROOT, 'dist', 'cli', 'commands')).filter((f) => f.endsWith('.js'))
    expect(readdirSync(join(BUNDLE, 'commands')).sort()).toEqual(own.sort())
  })

  it('is one CommonJS file (app.cjs), where every import.meta.url is the URL of the module\'s file in dist/', () => {
    const source = readFileSync(join(BUNDLE, 'app.cjs'), 'utf8')
    expect(source).not.toContain('import.meta')
    const urls = [...source.matchAll(/new URL\("(dist\/[^"]+)", new URL\(["']\.\.\/\.\.\/["'], __scansyncAppUrl\)\)\.href/g)].map((m) => m[1]!)
    expect(urls.length).toBeGreaterThan(10)
    for (const url of new Set(urls)) expect(existsSync(join(ROOT, ...url.split('/'))), url).toBe(true)
    expect(new URL('../../', pathToFileURL(join(BUNDLE, 'app.cjs'))).href).toBe(pathToFileURL(ROOT + '/').href)
    // ES modules as CommonJS keep their strict mode.
    expect(source.startsWith('"use strict";\n')).toBe(true)
    // The files oclif imports are a line each that takes their module from it: no chunk of ES modules is left
    // (bin/run.js, CommonJS, takes run/reads-from-argv.js from app.cjs itself).
    expect(readdirSync(BUNDLE).sort()).toEqual(['app.cjs', 'app.cjs.v8cache', 'commands'])
    for (const file of readdirSync(join(BUNDLE, 'commands')).map((f) => `commands/${f}`)) {
      expect(readFileSync(join(BUNDLE, file), 'utf8'), file).toContain(`await requireBuilt(new URL('../app.cjs', import.meta.url))[${JSON.stringify(file)}]()`)
    }
  })

  it('--version runs without Node\'s loader of ES modules: bin/ is CommonJS (its loader and a namespace for each of Node\'s modules imported cost ~10 ms)', () => {
    const probe = join(tempdir(), 'esm-probe.cjs')
    writeFileSync(probe, "process.on('exit', () => process.stderr.write(JSON.stringify({ esm: process.moduleLoadList.filter((m) => m.startsWith('NativeModule internal/modules/esm/')), files: Object.keys(require.cache).filter((file) => file !== __filename) })))")
    const run = spawnSync(process.execPath, ['--require', probe, join(ROOT, 'bin', 'run.js'), '--version'], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME } })
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^scansync\/\S+ \S+ node-v\S+\n$/)
    const { esm, files } = JSON.parse(run.stderr) as { esm: string[]; files: string[] }
    // Every process loads the loader's utilities; an ES module run loads the loader itself and its module jobs.
    expect(esm).not.toContain('NativeModule internal/modules/esm/loader')
    // The line and nothing else: not the V8 tuning, not oclif's options.
    expect(files).toEqual([join(ROOT, 'bin', 'run.js')])
  })

  it('validate loads the precompiled validators, not Ajv\'s compiler, and reads schemas/ and the version', () => {
    const run = spawnSync(process.execPath, ['--import', PROBE, join(ROOT, 'bin', 'run.js'), 'validate', join(ROOT, 'examples', 'config')], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' } })
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^Valid: /)
    expect(JSON.parse(run.stderr.slice(run.stderr.lastIndexOf('{')))).toEqual({ precompiled: true, compiler: false, policyAjv: false })
  })

  it('rules compile with Ajv loaded from its one bundled file (dist/schema/ajv.bundle.cjs), not from its ~40 files', () => {
    const run = spawnSync(process.execPath, ['--import', PROBE, join(ROOT, 'bin', 'run.js'), 'validate', join(ROOT, 'examples', 'config'), join(ROOT, 'examples', 'policies')], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' } })
    expect(run.status, run.stderr).toBe(0)
    expect(JSON.parse(run.stderr.slice(run.stderr.lastIndexOf('{')))).toEqual({ precompiled: true, compiler: false, policyAjv: true })
  })

  it('plan loads no CommonJS package through import (Node would first scan its source for exports, and optimise the scanner)', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    // Not spawnSync: the emulator answers from this process.
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'run.js'), 'plan', dir, '--format', 'json', '--state', join(dir, 'state.json')], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', NODE_DEBUG: 'esm', ...envFor(em) } as NodeJS.ProcessEnv })
    const run = await collectOutput(child)
    expect([0, 2], run.stderr.split('\n').filter((l) => /^(Error|Warn)/.test(l)).join('\n')).toContain(run.code)
    // NODE_DEBUG=esm names every module the ES loader handles: ours, and none from CommonJS (a
    // plan read for sure requires oclif from its bundled file).
    expect(run.stderr).toMatch(/ESM \d+: .*dist\/bundle\/commands\/plan\.js/)
    const translated = [...new Set((run.stderr.match(/Translating CJSModule \S+/g) ?? []).map((line) => line.replace(/.*node_modules\//, '')))].sort()
    expect(translated).toEqual([])
  })

  it('help, the version and a line with -- import oclif\'s three small entry points, as installed', () => {
    for (const args of [['validate', '--help'], ['plan', '--help'], ['plan', '-h'], ['plan', '--version'], ['validate', '--', 'x']]) {
      const run = spawnSync(process.execPath, [join(ROOT, 'bin', 'run.js'), ...args], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', NODE_DEBUG: 'esm' } })
      const translated = [...new Set((run.stderr.match(/Translating CJSModule \S+/g) ?? []).map((line) => line.replace(/.*node_modules\//, '')))].sort()
      expect(translated, args.join(' ')).toEqual(['@oclif/core/lib/errors/handle.js', '@oclif/core/lib/flush.js', '@oclif/core/lib/main.js'])
    }
  })

  // An unknown flag or a refused value loaded some hundred files of oclif as installed (~0.3 s of
  // CPU) to be refused in the words its bundled copy has too.
  it('a command line not read for sure but asking nothing of the plugins (an unknown flag, a refused value) runs oclif from its bundled file, refused in the same words', () => {
    const cases: Array<[string[], string]> = [
      [['validate', join(ROOT, 'examples', 'config'), '--format', 'json'], 'Error: unknown flag --format. See scansync validate --help.'],
      [['plan', '--tokn=x'], 'Error: unknown flag --tokn=(redacted). See scansync plan --help.'],
      [['audit', '--fromat', 'json'], 'Error: unknown flag --fromat (did you mean --format?). See scansync audit --help.'],
      [['plan', '--format', 'xml'], 'Error: Expected --format=xml to be one of: text, json, markdown, github. See scansync plan --help.'],
      [['apply', '--plan'], 'Error: Flag --plan expects a value. See scansync apply --help.'],
    ]
    for (const [args, message] of cases) {
      const run = spawnSync(process.execPath, ['--import', OCLIF_PROBE, join(ROOT, 'bin', 'run.js'), ...args], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' } })
      expect(run.status, args.join(' ')).toBe(1)
      expect(run.stderr.split('\n')[0], args.join(' ')).toBe(message)
      expect(JSON.parse(run.stderr.slice(run.stderr.lastIndexOf('{'))), args.join(' ')).toMatchObject({ bundled: true, installed: [] })
    }
  })

  it('a plan, drift, apply, audit or validate read for sure runs oclif (and undici) from their bundled files (dist/cli/oclif.bundle.cjs, dist/client/undici.bundle.cjs), and no file of either as installed', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    const policies = join(ROOT, 'examples', 'policies')
    for (const command of ['plan', 'drift', 'apply', 'audit']) {
      const state = ['--state', join(dir, 'state.json')]
      const args = { apply: ['apply', dir, '--auto-approve', ...state], audit: ['audit', dir, policies, '--format', 'json'] }[command] ?? [command, dir, '--format', 'json', ...state]
      const child = spawn(process.execPath, ['--import', OCLIF_PROBE, join(ROOT, 'bin', 'run.js'), ...args], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...envFor(em) } as NodeJS.ProcessEnv })
      const run = await collectOutput(child)
      expect([0, 2], `${command}: ${run.stderr}`).toContain(run.code)
      expect(JSON.parse(run.stderr.slice(run.stderr.lastIndexOf('{'))), command).toEqual({ bundled: true, installed: [], undici: 0, undiciBundled: true })
    }
    // A validate read for sure runs oclif from its bundled file too, and loads no undici.
    const validate = spawnSync(process.execPath, ['--import', OCLIF_PROBE, join(ROOT, 'bin', 'run.js'), 'validate', dir, '-q'], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' } })
    expect(validate.status, validate.stderr).toBe(0)
    expect(JSON.parse(validate.stderr.slice(validate.stderr.lastIndexOf('{')))).toEqual({ bundled: true, installed: [], undici: 0, undiciBundled: false })
    // The same probe sees oclif as installed where a run is not read for sure.
    const help = spawnSync(process.execPath, ['--import', OCLIF_PROBE, join(ROOT, 'bin', 'run.js'), 'plan', '--help'], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' } })
    expect(help.status, help.stderr).toBe(0)
    const seen = JSON.parse(help.stderr.slice(help.stderr.lastIndexOf('{'))) as { bundled: boolean; installed: string[] }
    expect(seen.bundled).toBe(false)
    expect(seen.installed).toContain('@oclif/core/lib/main.js')
  })

  it('import, init and schema read for sure run oclif from its bundled file too, and do and refuse what they did from oclif as installed', async () => {
    const em = await emulator()
    const out = tempdir()
    const probe = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
      const run = await collectOutput(spawn(process.execPath, ['--import', OCLIF_PROBE, join(ROOT, 'bin', 'run.js'), ...args], { cwd: out, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env } as NodeJS.ProcessEnv }))
      const tail = run.stderr.lastIndexOf('{')
      return { code: run.code, stdout: run.stdout, stderr: run.stderr.slice(0, tail), seen: JSON.parse(run.stderr.slice(tail)) as { bundled: boolean; installed: string[]; undici: number; undiciBundled: boolean } }
    }
    const imported = await probe(['import', '--kind', 'target', '--all'], envFor(em))
    expect(imported.code, imported.stderr).toBe(0)
    expect(imported.stdout).toMatch(/^targets:/m)
    expect(imported.seen).toEqual({ bundled: true, installed: [], undici: 0, undiciBundled: true })
    const init = await probe(['init', 'config', '-q'])
    expect(init.code, init.stderr).toBe(0)
    expect(readdirSync(join(out, 'config')).sort()).toEqual(['.gitignore', 'README.md', 'agents.yaml', 'assets.yaml', 'targets.yaml'])
    expect(init.seen).toMatchObject({ bundled: true, installed: [] })
    const schema = await probe(['schema'])
    expect(schema.code, schema.stderr).toBe(0)
    expect(schema.stdout).toBe(readFileSync(join(ROOT, 'schemas', 'config.schema.json'), 'utf8'))
    expect(schema.seen).toMatchObject({ bundled: true, installed: [] })
    // What the parser or the command refuses reads as from oclif as installed (compared by hand: the same text, the same exit).
    const refused = await probe(['init', 'a', 'b'])
    expect([refused.code, refused.stderr, refused.seen.bundled]).toEqual([1, 'Error: Unexpected argument: b. See scansync init --help.\n', true])
    const unnamed = await probe(['import', '--kind', 'target'])
    expect([unnamed.code, unnamed.stderr, unnamed.seen.bundled]).toEqual([1, 'Error: name the resources with --id ID (repeatable), or import them all with --all\n', true])
  })

  it('sorts oclif\'s commands without localeCompare in a run read for sure (scansync\'s ids are lowercase letters, whose order is the same), and oclif as installed still uses it', async () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as { commands: Record<string, unknown> }
    const ids = Object.keys(manifest.commands)
    for (const id of ids) expect(id).toMatch(/^[a-z]+$/)
    expect([...ids].sort()).toEqual([...ids].sort((a, b) => a.localeCompare(b)))
    const em = await emulator()
    const dir = exampleConfig()
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...envFor(em) } as NodeJS.ProcessEnv
    const calls = async (args: string[]) => {
      const run = await collectOutput(spawn(process.execPath, ['--import', LOCALE_PROBE, join(ROOT, 'bin', 'run.js'), ...args], { cwd: ROOT, env }))
      expect([0, 2], `${args.join(' ')}: ${run.stderr}`).toContain(run.code)
      return (JSON.parse(run.stderr.slice(run.stderr.lastIndexOf('{'))) as { localeCompare: number }).localeCompare
    }
    expect(await calls(['plan', dir, '--format', 'json', '--state', join(dir, 'state.json')])).toBe(0)
    expect(await calls(['validate', dir])).toBe(0)
    expect(await calls(['plan', '--help'])).toBeGreaterThan(0)
  })
})
