#!/usr/bin/env node
// Bundles what a run of the CLI loads (the commands and the reads bin/run.js starts) from dist/
// into one CommonJS file, dist/bundle/app.cjs, loaded with the code cache the build makes of it
// (src/core/code-cache.ts): ~100 ES modules to resolve and link took about 50 ms of every start,
// and Node 20 has no code cache for ES modules, so even as a few chunks they were parsed and
// compiled again in every run. Each command's module, and the early reads, are initialised only
// when asked for (`import()` in the file's entry becomes esbuild's lazy init), so a run still
// runs only what its command uses. The files oclif imports (dist/bundle/commands/*.js) are a line
// each that takes their module from it; bin/run.js, CommonJS, takes `run/reads-from-argv.js` from
// the file itself. Packages stay outside (oclif, undici, Ajv… load as installed, or from
// their own bundled files below). Each module's `import.meta.url` is rewritten to the URL its own
// file has in dist/, so paths it resolves (schemas/, package.json, validators.cjs) stay what they
// are in dist/.
import { build } from 'esbuild'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DYNAMIC_IMPORT } from '../dist/core/code-cache.js'
import { inAscii } from './ascii.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const dist = join(root, 'dist')
const outdir = join(dist, 'bundle')
const appFile = join(outdir, 'app.cjs')
const commands = readdirSync(join(dist, 'cli', 'commands')).filter((f) => f.endsWith('.js'))
/** Each module the file's entry gives (by its name relative to dist/bundle/), what it stands for, and what it exports; `file`: oclif imports it from a file of that name. */
const entries = [
  ...commands.map((f) => ({ name: `commands/${f}`, module: `./dist/cli/commands/${f}`, exports: ['default'], file: true })),
  { name: 'run/reads-from-argv.js', module: './dist/cli/run/reads-from-argv.js', exports: ['startFromArgv'], file: false },
]

/** `import.meta.url` as the module's file in dist/, from the bundle's own URL (set by its first lines, see the banner below). */
const keepImportMetaUrl = {
  name: 'keep-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8')
      if (!source.includes('import.meta.url')) return undefined
      const fromRoot = relative(root, args.path).split(/[\\/]/).join('/')
      return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromRoot)}, new URL('../../', __scansyncAppUrl)).href`), loader: 'js' }
    })
  },
}

/**
 * The CommonJS files of dist/ that modules import (the schemas' formats, which the precompiled
 * validators require too) stay outside the bundle, required from their place in dist/.
 */
const keepCommonJsFiles = {
  name: 'keep-commonjs-files',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\/.*\.cjs$/ }, (args) => {
      const file = join(args.resolveDir, args.path)
      if (relative(dist, file).startsWith('..')) return undefined
      return { path: `../${relative(dist, file).split(/[\\/]/).join('/')}`, external: true }
    })
  },
}

rmSync(outdir, { recursive: true, force: true })
await build({
  stdin: { contents: `module.exports = {\n${entries.map(({ name, module }) => `  ${JSON.stringify(name)}: () => import(${JSON.stringify(module)}),`).join('\n')}\n}\n`, resolveDir: root, sourcefile: 'app.cjs', loader: 'js' },
  outfile: appFile,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // ES modules keep their strict mode as CommonJS; `__scansyncAppUrl` is what keepImportMetaUrl's URLs start from.
  banner: { js: '"use strict";\nconst __scansyncAppUrl = require("node:url").pathToFileURL(__filename).href;' },
  // Packages load as installed; p-limit is an ES module only, which Node 20.18 cannot require, so it is bundled.
  external: Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).dependencies)
    .filter((name) => name !== 'p-limit')
    .flatMap((name) => [name, `${name}/*`]),
  plugins: [keepImportMetaUrl, keepCommonJsFiles],
  logLevel: 'warning',
})
// A dynamic import left in the file (of a package, or of one of Node's modules) goes through the
// loader's `__scansyncImport`, as oclif's do (below): V8 compiles a file for a code cache without
// Node's hook for `import()`.
writeFileSync(appFile, readFileSync(appFile, 'utf8').replace(DYNAMIC_IMPORT, '__scansyncImport('))
for (const { name, exports } of entries.filter(({ file }) => file)) {
  mkdirSync(join(outdir, name, '..'), { recursive: true })
  writeFileSync(join(outdir, name), [
    '// Written by scripts/bundle.js: the module is in ../app.cjs.',
    "import { requireBuilt } from '../../core/code-cache.js'",
    `const module = await requireBuilt(new URL('../app.cjs', import.meta.url))[${JSON.stringify(name)}]()`,
    ...exports.map((exported) => (exported === 'default' ? 'export default module.default' : `export const ${exported} = module.${exported}`)),
    '',
  ].join('\n'))
}

/**
 * Packages as one CommonJS file each, from a few lines that require what is wanted of them:
 * `sourcefile` names that entry in errors, `outfile` is relative to dist/, and `external` lists
 * what the file leaves to be required at run time.
 */
function bundlePackages({ contents, sourcefile, outfile, external = [], plugins = [] }) {
  return build({
    stdin: { contents, resolveDir: root, sourcefile, loader: 'js' },
    outfile: join(dist, ...outfile.split('/')),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external,
    plugins,
    logLevel: 'warning',
  })
}

// Ajv and ajv-formats as one CommonJS file for the policy Ajv (src/schema/policy-ajv.ts): a plan
// whose configuration has rules loads Ajv to compile them, and resolving and compiling Ajv's ~40
// files took ~35 ms of it, the one file ~10.
await bundlePackages({
  contents: "const { Ajv } = require('ajv')\nconst formats = require('ajv-formats')\nmodule.exports = { Ajv, addFormats: formats.default ?? formats }\n",
  sourcefile: 'ajv-for-policies.cjs',
  outfile: 'schema/ajv.bundle.cjs',
})

// `yaml` as one CommonJS file for the precise reader (src/config/read-yaml.ts): a file with
// anchors, merge keys or tags (rule files written with shared blocks, issue 15) loads it, and
// resolving, reading and compiling its ~40 files took ~55 ms of such a run.
await bundlePackages({
  contents: "module.exports = require('yaml')\n",
  sourcefile: 'yaml-for-the-precise-reader.cjs',
  outfile: 'config/yaml.bundle.cjs',
})

// js-yaml as one CommonJS file, for configuration files the block reader does not take
// (src/config/fast-yaml.ts): loaded only then, where the package's ES module was imported by every run.
await bundlePackages({
  contents: "module.exports = require('js-yaml')\n",
  sourcefile: 'js-yaml-for-the-fast-reader.cjs',
  outfile: 'config/js-yaml.bundle.cjs',
})

/**
 * undici's client requires its HTTP/2 client at its top, and with it `node:http2`, `tls` and most
 * of `crypto` (~6 ms before the first request). It is used only for a TLS connection on which the
 * server chose h2, which needs `allowH2`, an option the transport never sets: required when first
 * called instead. The line is matched exactly; the build fails if a new version of undici
 * writes it otherwise (test/client/undici-pool.test.ts checks node:http2 stays unloaded).
 */
const lazyHttp2Client = {
  name: 'lazy-http2-client',
  setup(b) {
    b.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8')
      const eager = "const connectH2 = require('./client-h2.js')\n"
      if (source.split(eager).length !== 2) throw new Error(`${args.path}: expected the line ${JSON.stringify(eager)} once; undici changed, review the lazy HTTP/2 client`)
      return { contents: source.replace(eager, "const connectH2 = (client, socket) => require('./client-h2.js')(client, socket)\n"), loader: 'js' }
    })
  },
}

// The two modules of undici the transport uses (src/client/undici-pool.ts) as one CommonJS file
// (dist/client/undici.bundle.cjs), with the version they come from: ~25 files to resolve, read and
// compile before the first request, ~8 ms of CPU more than the one file.
await bundlePackages({
  contents: "module.exports = { Pool: require('undici/lib/dispatcher/pool.js'), request: require('undici/lib/api/api-request.js'), version: require('undici/package.json').version }\n",
  sourcefile: 'undici-for-the-transport.cjs',
  outfile: 'client/undici.bundle.cjs',
  plugins: [lazyHttp2Client],
})

// oclif's entry points as one CommonJS file (dist/cli/oclif.bundle.cjs) for the runs bin/run.js is
// sure plan, drift or apply: oclif and its dependencies are ~100 files, and resolving, reading
// and compiling each took more of a plan's start than running them. Those runs load no plugin,
// so no other copy of oclif meets this one; every other run loads oclif as installed.
await bundlePackages({
  contents: [
    "const { Command } = require('@oclif/core/command')",
    "module.exports = { run: require('@oclif/core/run').run, flush: require('@oclif/core/flush').flush, handle: require('@oclif/core/handle').handle,",
    "  Command, Args: require('@oclif/core/args'), Errors: require('@oclif/core/errors'), Flags: require('@oclif/core/flags') }",
  ].join('\n'),
  sourcefile: 'oclif-for-planning-runs.cjs',
  outfile: 'cli/oclif.bundle.cjs',
  // What oclif loads only to run a command written in TypeScript (a plugin in development).
  external: ['typescript', 'ts-node', 'tsx'],
})

// The file is loaded with its code cache (src/core/code-cache.ts), compiled by V8 without Node's
// hook for `import()`: oclif's dynamic imports (of the command modules) go through the loader's
// `__scansyncImport` instead. scripts/code-cache.js fails the build if a cached file still has one.
const oclifFile = join(dist, 'cli', 'oclif.bundle.cjs')
const oclifSource = readFileSync(oclifFile, 'utf8')
const oclifImports = oclifSource.match(DYNAMIC_IMPORT)?.length ?? 0
if (oclifImports === 0) throw new Error(`${oclifFile}: no dynamic import() found; oclif changed, review how it loads commands`)
/*
 * oclif sorts a plugin's commands by `id.localeCompare`, and the first call of localeCompare in a
 * process builds ICU's collator: 7–10 ms of every run for a list whose order a run read for sure
 * never shows. Ids of lowercase letters only (all of scansync's) sort the same by their code units;
 * any other id is compared as oclif compares it.
 */
const LOCALE_SORT = '.sort((a, b) => a.id.localeCompare(b.id))'
const PLAIN_IDS = /^[a-z]+$/
const plainSort = `.sort((a, b) => ${PLAIN_IDS}.test(a.id) && ${PLAIN_IDS}.test(b.id) ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.id.localeCompare(b.id))`
if (oclifSource.split(LOCALE_SORT).length !== 2) throw new Error(`${oclifFile}: expected ${JSON.stringify(LOCALE_SORT)} once; oclif changed, review how it sorts commands`)
writeFileSync(oclifFile, oclifSource.replace(DYNAMIC_IMPORT, '__scansyncImport(').replace(LOCALE_SORT, plainSort))

// The loader of these files (src/core/code-cache.ts) as CommonJS too, for bin/run.js, which is
// CommonJS so that nothing before a plan's first request goes through Node's loader of ES modules.
// Its copies share what they loaded (a key of globalThis); its `import()` stays Node's own.
await build({
  entryPoints: [join(dist, 'core', 'code-cache.js')],
  outfile: join(dist, 'core', 'code-cache.cjs'),
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  define: { 'import.meta.url': '__codeCacheUrl' },
  banner: { js: '"use strict";\nconst __codeCacheUrl = require("node:url").pathToFileURL(__filename).href;' },
  logLevel: 'warning',
})

await inAscii(appFile)
await inAscii(join(dist, 'schema', 'ajv.bundle.cjs'))
await inAscii(join(dist, 'config', 'yaml.bundle.cjs'))
await inAscii(join(dist, 'config', 'js-yaml.bundle.cjs'))
await inAscii(join(dist, 'client', 'undici.bundle.cjs'))
// ansis's pattern of terminal escape sequences holds C1's CSI (U+009B) as it is.
await inAscii(oclifFile, [['/[\x1b\u009b][[()#;?]*', '/[\\x1b\\x9b][[()#;?]*']])
