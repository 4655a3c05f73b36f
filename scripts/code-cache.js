#!/usr/bin/env node
// Writes V8's code cache of each CommonJS file the build made (src/core/code-cache.ts): the
// application's (dist/bundle/app.cjs), the one-file bundles of oclif, undici, Ajv, yaml and
// js-yaml, and the precompiled validators. Each
// file is loaded as a run loads it and then does a small part of a run's work (a command run
// through oclif, plans against the emulator and a request to a loopback server, each validator called, rules compiled and run,
// configuration files read), so that the cache holds the bytecode of the functions that work
// compiles, not only of the file's top level. V8 takes a cache only under the flags it was made
// with: bin/v8-flags.js sets them here, as in every run, before any file loads. Every request
// goes to 127.0.0.1.
import { transform } from 'esbuild'
import { createServer } from 'node:http'
import fs, { readFileSync, statSync } from 'node:fs'
import { relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { oclifOptions } from '../bin/oclif-options.js'
import { tuneV8 } from '../bin/v8-flags.js'

tuneV8()
const root = fileURLToPath(new URL('..', import.meta.url))
const { requireBuilt, writeCodeCaches, codeCacheReport, DYNAMIC_IMPORT, codeCacheFile } = await import('../dist/core/code-cache.js')

// oclif: loaded, and a command run through it as bin/run.js runs plan, drift and apply (the
// package's own plugins left out): its configuration, manifest and flag parsing. The command is
// `version`, whose one line of output is kept out of the build's.
const oclif = requireBuilt(new URL('../dist/cli/oclif.bundle.cjs', import.meta.url))
if (!oclif) throw new Error('dist/cli/oclif.bundle.cjs is missing: run scripts/bundle.js first')
globalThis[Symbol.for('scansync.oclif.bundled')] = oclif
const write = process.stdout.write
process.stdout.write = () => true
// A run writes a file or device given as stdout or stderr straight to its descriptor (core/io.ts
// wholeWrites), not through the stream: `npm run build > build.log`, `npm pack --json > pack.json`
// (prepare runs the build) got the warm-up's output. Its writes to 1 and 2 are dropped too.
const writeSync = fs.writeSync
fs.writeSync = (fd, ...rest) => (fd === 1 || fd === 2 ? (typeof rest[0] === 'string' ? Buffer.byteLength(rest[0]) : (rest[2] ?? rest[0].byteLength - (rest[1] ?? 0))) : writeSync(fd, ...rest))
try {
  await oclif.run(['version'], oclifOptions(true))
  await oclif.flush()
} finally {
  process.stdout.write = write
}

// The application (dist/bundle/app.cjs, every command's code): a validate and two plans of the
// examples against the emulator on the loopback interface, run through oclif as bin/run.js runs
// them, with the emulator's token and the examples' own demo values (nothing secret is in the
// work, and a code cache holds code, not the values it ran on). Output is kept out of the
// build's. Where the build may not listen even there (a sandbox), the plans are left out, and the
// cache holds what the validate compiled.
{
  const { startEmulator } = await import('../dist/emulator/index.js')
  const { cpSync, mkdtempSync: temporary, rmSync: remove } = await import('node:fs')
  const { tmpdir: temporaryRoot } = await import('node:os')
  const { join: joinPath } = await import('node:path')
  const dir = temporary(joinPath(temporaryRoot(), 'scansync-code-cache-plan-'))
  cpSync(new URL('../examples/config', import.meta.url), dir, { recursive: true })
  const token = 'code-cache-warm-up-token'
  let em
  try {
    em = await startEmulator({ seed: JSON.parse(readFileSync(new URL('../examples/emulator-seed.json', import.meta.url), 'utf8')), token })
  } catch (error) {
    console.warn(`Code caches: the application warmed without a plan (${error.message})`)
  }
  const runs = [['validate', dir], ...(em ? [['plan', dir, '--format', 'json', '--state', joinPath(dir, 'state.json')], ['plan', dir, '--state', joinPath(dir, 'state.json')]] : [])]
  const saved = { env: { ...process.env }, exitCode: process.exitCode, stderr: process.stderr.write }
  if (em) Object.assign(process.env, { SCANSYNC_API_URL: em.url, SCANSYNC_API_TOKEN: token })
  process.stdout.write = () => true
  process.stderr.write = () => true
  try {
    for (const args of runs) {
      await oclif.run(args, oclifOptions(true))
      await oclif.flush()
    }
  } finally {
    process.stdout.write = write
    process.stderr.write = saved.stderr
    process.exitCode = saved.exitCode
    for (const name of ['SCANSYNC_API_URL', 'SCANSYNC_API_TOKEN']) {
      if (saved.env[name] === undefined) delete process.env[name]
      else process.env[name] = saved.env[name]
    }
    await em?.close()
    remove(dir, { recursive: true, force: true })
    fs.writeSync = writeSync
  }
}

// undici: a request to a server on the loopback interface, as the transport sends it. Where the
// build may not listen even there (a sandbox), undici's cache holds its top level only.
const { Pool, poolRequest } = await import('../dist/client/undici-pool.js')
const server = createServer((request, response) => response.end('{"items":[]}'))
try {
  await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve))
  const pool = new Pool(`http://127.0.0.1:${server.address().port}`, { connections: 1 })
  try {
    const answer = await poolRequest(pool, { path: '/', method: 'GET', headers: { accept: 'application/json' } })
    await answer.body.json()
  } finally {
    await pool.close()
  }
} catch (error) {
  console.warn(`Code caches: undici warmed without a request (${error.message})`)
} finally {
  if (server.listening) await new Promise((resolve) => server.close(resolve))
}

// The validators: each one called (its own function compiled; the ones it calls in turn for
// parts of a document are compiled when a run first needs them).
const { validator, VALIDATOR_SCHEMAS } = await import('../dist/schema/validators.js')
for (const name of Object.keys(VALIDATOR_SCHEMAS)) for (const value of [{}, { items: [] }, []]) validator(name)(value)

// Policy rules: the example rules and a schema with every keyword, checked against the
// meta-schema, compiled and run, as a plan with rules does.
const { metaSchemaErrors } = await import('../dist/schema/policy-meta.js')
const { createPolicyAjv } = await import('../dist/schema/policy-ajv.js')
const examples = parse(readFileSync(new URL('../examples/policies/organisation.yaml', import.meta.url), 'utf8')).policies
const everyKeyword = {
  type: 'object',
  required: ['a'],
  properties: {
    a: { type: 'string', minLength: 1, maxLength: 9, pattern: '^a', format: 'uri', enum: ['a'], const: 'a' },
    b: { type: 'number', minimum: 0, maximum: 9, exclusiveMinimum: -1, exclusiveMaximum: 10, multipleOf: 1 },
    c: { type: 'array', items: { type: 'object', properties: { name: { const: 'x' } } }, contains: { required: ['name'] }, minItems: 1, maxItems: 9, uniqueItems: true },
    d: { anyOf: [{ type: 'null' }, { type: 'boolean' }], not: { const: 1 } },
    e: { oneOf: [{ required: ['x'] }, { required: ['y'] }], allOf: [{ minProperties: 1 }, { maxProperties: 9 }] },
    f: { if: { required: ['x'] }, then: { required: ['y'] }, else: { required: ['z'] } },
    g: { propertyNames: { pattern: '^[a-z]+$' }, patternProperties: { '^x': { type: 'string' } }, additionalProperties: false, dependencies: { x: ['y'] } },
  },
}
const schemas = [...examples.flatMap((rule) => [rule.when, rule.require]).filter((schema) => schema !== undefined), everyKeyword]
const ajv = createPolicyAjv({ formats: true })
for (const schema of schemas) {
  if (metaSchemaErrors(schema).errors) throw new Error(`a warm-up schema is not a JSON Schema: ${JSON.stringify(schema)}`)
  const validate = ajv.compile(schema)
  for (const value of [{}, { a: 'a', b: 1, c: [{ name: 'x' }], d: null, e: { x: 1 }, f: { y: 1 }, g: { x: 'x', y: 1 } }, { labels: [{ name: 'production' }], site: { url: 'https://a' } }]) validate(value)
}

// yaml: a file with anchors, a merge key and a tag read by the precise reader, a position asked for.
const { loadConfig } = await import('../dist/config/load.js')
const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs')
const { tmpdir } = await import('node:os')
const { join } = await import('node:path')
const configDir = mkdtempSync(join(tmpdir(), 'scansync-code-cache-'))
try {
  writeFileSync(join(configDir, 'targets.yaml'), [
    'x-window: &window {begin: "20:00", cease: "06:00", weekdays: [1, 2], timezone: UTC}',
    'targets:',
    '  - id: T1',
    '    site: {name: Shop, url: "https://shop.example.com/"}',
    '    blackout_period: {<<: *window, enabled: true}',
    '    labels: !!seq [{name: production}]',
    '    report_type: not-a-report-type',
    '',
  ].join('\n'))
  // A folded scalar and a quoted escape: not plain block YAML, read by js-yaml.
  writeFileSync(join(configDir, 'agents.yaml'), 'agents:\n  - id: A1\n    name: >-\n      agent-one\n    teams: [{name: "team\\u002Da"}]\n')
  await loadConfig([configDir], { env: {} })
  const read = codeCacheReport().map(({ file }) => relative(root, file).split(sep).join('/'))
  for (const file of ['dist/config/yaml.bundle.cjs', 'dist/config/js-yaml.bundle.cjs']) if (!read.includes(file)) throw new Error(`the warm-up did not load ${file}: review its configuration files`)
} finally {
  rmSync(configDir, { recursive: true, force: true })
}

const written = writeCodeCaches()
for (const file of written) {
  // Without comments (JSDoc types write `import('…')`).
  const { code } = await transform(readFileSync(file, 'utf8'), { loader: 'js', minifyWhitespace: true })
  if (code.search(DYNAMIC_IMPORT) !== -1) throw new Error(`${file}: holds a dynamic import(), which a file loaded with its code cache cannot run (see scripts/bundle.js for oclif's)`)
}
const kb = (file) => Math.round(statSync(file).size / 1024)
// On stderr, as the build's other words: its stdout stays empty, for `npm pack --json`'s (prepare runs the build).
console.error(`Code caches: ${written.map((file) => `${relative(root, file)} (${kb(codeCacheFile(file))} KB)`).join(', ')}`)
