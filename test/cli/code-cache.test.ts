// The build's CommonJS files load with the V8 code cache the build made of them
// (src/core/code-cache.ts, scripts/code-cache.js). Each case runs in a process of its own: V8
// takes a cache only under the flags it was made with, and bin/v8-flags.js sets a run's.
import { spawn, spawnSync } from 'node:child_process'
import { isAscii } from 'node:buffer'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { collectOutput, ROOT } from '../helpers/cli.js'
import { emulator, envFor, exampleConfig } from '../e2e/helpers.js'

const BUILT = ['cli/oclif.bundle.cjs', 'client/undici.bundle.cjs', 'schema/ajv.bundle.cjs', 'schema/validators.cjs', 'schema/policy-meta.cjs', 'config/yaml.bundle.cjs', 'config/js-yaml.bundle.cjs', 'bundle/app.cjs'].map((file) => join(ROOT, 'dist', ...file.split('/')))
const LOADER = pathToFileURL(join(ROOT, 'dist', 'core', 'code-cache.js')).href
const FLAGS = pathToFileURL(join(ROOT, 'bin', 'v8-flags.js')).href

/** Runs `body` as an ES module in a fresh process with a run's V8 flags and the loader imported; its stdout parsed as JSON. */
function inRun(body: string): unknown {
  const script = `import { tuneV8 } from ${JSON.stringify(FLAGS)}\ntuneV8()\nconst loader = await import(${JSON.stringify(LOADER)})\n${body}`
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME } })
  expect(run.status, run.stderr).toBe(0)
  return JSON.parse(run.stdout)
}

const work = mkdtempSync(join(tmpdir(), 'scansync-code-cache-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('code cache', () => {
  it('every file the build caches loads with its cache under the flags a run sets, and works', () => {
    const report = inRun(`
      const exports = ${JSON.stringify(BUILT)}.map((file) => loader.requireBuilt(new URL('file://' + file)))
      const ajv = new exports[2].Ajv({ strict: false })
      console.log(JSON.stringify({ report: loader.codeCacheReport(), oclif: typeof exports[0].run, pool: typeof exports[1].Pool, rule: ajv.compile({ required: ['a'] })({ a: 1 }), validators: typeof exports[3].config, meta: exports[4]({ type: 'object' }), yaml: exports[5].parse('a: &x {b: 1}\\nc: {<<: *x}', { merge: true }), jsYaml: exports[6].load('a: >-\\n  b\\n'), app: typeof (await exports[7]['commands/plan.js']()).default }))`)
    expect(report).toEqual({ report: BUILT.map((file) => ({ file, cached: true })), oclif: 'function', pool: 'function', rule: true, validators: 'function', meta: true, yaml: { a: { b: 1 }, c: { b: 1 } }, jsYaml: { a: 'b' }, app: 'function' })
  })

  it('a plan with rules loads every built file with its cache taken (oclif imports the command through the loader)', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    const probe = `data:text/javascript,${encodeURIComponent(`process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify([...globalThis[Symbol.for('scansync.codeCache.loaded')]].map(([file, { cached }]) => [file, cached])) + '\\n'))`)}`
    // The example rules use anchors: their file is read by `yaml`, from its bundled file.
    const child = spawn(process.execPath, ['--import', probe, join(ROOT, 'bin', 'run.js'), 'plan', dir, join(ROOT, 'examples', 'policies'), '--format', 'json', '--state', join(dir, 'state.json')], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...envFor(em) } as NodeJS.ProcessEnv })
    const run = await collectOutput(child)
    // The example configuration breaks an example rule (the demo fixes it): exit 1, the plan printed.
    expect(run.code, run.stderr).toBe(1)
    expect(JSON.parse(run.stdout).violations.length).toBeGreaterThan(0)
    const loaded = JSON.parse(/^LOADED (.*)$/m.exec(run.stderr)![1]!) as Array<[string, boolean]>
    // Every file but js-yaml's: the example configuration is plain block YAML, which never loads it.
    expect(loaded.sort()).toEqual(BUILT.filter((file) => !file.endsWith('js-yaml.bundle.cjs')).map((file) => [file, true]).sort())
  })

  it('a cache is taken only for the bytes it was made from: a file changed to the same length loads as it now is', () => {
    const file = join(work, 'answer.cjs')
    writeFileSync(file, "module.exports = 'first'")
    expect(inRun(`console.log(JSON.stringify([loader.requireBuilt(new URL('file://${file}')), loader.writeCodeCaches()]))`)).toEqual(['first', [file]])
    const load = `console.log(JSON.stringify([loader.requireBuilt(new URL('file://${file}')), loader.codeCacheReport()[0].cached]))`
    expect(inRun(load)).toEqual(['first', true])
    // V8 checks a cache against the source's length only, and would run 'first' again: the digest is what refuses it.
    writeFileSync(file, "module.exports = 'other'")
    expect(inRun(load)).toEqual(['other', false])
    // A cache that is not one (cut short, or another file's) is not taken either.
    writeFileSync(`${file}.v8cache`, readFileSync(`${file}.v8cache`).subarray(0, 20))
    expect(inRun(load)).toEqual(['other', false])
  })

  it('under V8 flags other than a run\'s (node given one of its own, bin/v8-flags.js not applied), V8 refuses the cache and the file loads and works as without it', () => {
    const script = `const { requireBuilt, codeCacheReport } = await import(${JSON.stringify(LOADER)})
      const ajv = requireBuilt(new URL('file://${BUILT[2]}'))
      console.log(JSON.stringify({ report: codeCacheReport(), rule: new ajv.Ajv({ strict: false }).compile({ required: ['a'] })({}) }))`
    const run = spawnSync(process.execPath, ['--max-lazy', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME } })
    expect(run.status, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual({ report: [{ file: BUILT[2], cached: false }], rule: false })
  })

  it('every file the build caches is ASCII (scripts/bundle.js escapes the rest), so that V8 holds its source at one byte a character', () => {
    const notAscii = BUILT.filter((file) => !isAscii(readFileSync(file))).map((file) => {
      const text = readFileSync(file, 'utf8')
      const at = text.search(/[^\x00-\x7f]/)
      return `${file}:${text.slice(0, at).split('\n').length}: ${JSON.stringify(text.slice(Math.max(0, at - 30), at + 10))}`
    })
    expect(notAscii).toEqual([])
  })

  it('a file with characters outside ASCII loads them as its UTF-8 says, in strings, names and comments', () => {
    const file = join(work, 'accents.cjs')
    writeFileSync(file, "// Wärting's “quotes”\nconst café = 'é…😀'\nmodule.exports = { café, length: café.length }")
    expect(inRun(`console.log(JSON.stringify(loader.requireBuilt(new URL('file://${file}'))))`)).toEqual({ café: 'é…😀', length: 4 })
  })

  it('a loaded file is the one require() gives (registered in its cache), and a missing file is undefined', () => {
    const file = join(work, 'object.cjs')
    writeFileSync(file, 'module.exports = { loadedAs: __filename, dir: __dirname, topThis: this === module.exports, strict: (function () { return this === undefined })() }')
    const result = inRun(`
      const { createRequire } = await import('node:module')
      const loaded = loader.requireBuilt(new URL('file://${file}'))
      console.log(JSON.stringify({ loaded, same: createRequire(${JSON.stringify(file)})(${JSON.stringify(file)}) === loaded, missing: loader.requireBuilt(new URL('file://${join(work, 'none.cjs')}')) ?? null }))`)
    expect(result).toEqual({ loaded: { loadedAs: file, dir: work, topThis: true, strict: false }, same: true, missing: null })
  })
})
