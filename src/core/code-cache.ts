/**
 * CommonJS files the build writes (the one-file bundles of oclif, undici, Ajv, yaml and js-yaml,
 * the precompiled validators), loaded with the code cache the build made of each: V8's bytecode of
 * the file's functions as they stood after a warm-up, so that a run deserialises them instead of
 * parsing and compiling them again (docs/performance.md, "Code caches for the build's CommonJS files").
 *
 * A cache is used only for the exact bytes it was made from, by the Node release that made it: its
 * file starts with the SHA-256 of them and of that release (V8 itself checks only the source's
 * length, and its own version number, the same in every Node 20 from 20.10 to 20.20, whose patches
 * differ: a cache made by 20.20 and taken by 20.18 ended every run in a segmentation fault). V8
 * refuses a cache made under other flags (bin/v8-flags.js sets every flag a run sets before any of
 * these files loads), and the file is then compiled as if it had none. Nothing is written at run time: the build
 * writes the caches (scripts/code-cache.js), beside the files, from code of this package only.
 */
import { isAscii } from 'node:buffer'
import { createHash } from 'node:crypto'
import { closeSync, fstatSync, openSync, readFileSync, readSync, renameSync, writeFileSync } from 'node:fs'
import Module, { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Script } from 'node:vm'

/** Where the build writes a file's code cache. */
export const codeCacheFile = (file: string): string => `${file}.v8cache`

/**
 * The parameters of the function a file's code runs in: CommonJS's, and `__scansyncImport`, which
 * stands for `import()` (scripts/bundle.js rewrites oclif's dynamic imports to it): V8 compiles a
 * script for a code cache without Node's hook for `import()`, which Node 20 offers only behind a flag.
 */
const HEAD = '(function (exports, require, module, __filename, __dirname, __scansyncImport) {'
const TAIL = '\n})'

/**
 * A dynamic `import(` as code, not as text in a string (`"import()"`): what a file loaded here
 * must not hold (scripts/bundle.js rewrites oclif's; scripts/code-cache.js checks every file).
 */
export const DYNAMIC_IMPORT = /(?<![\w$.'"`])import\(/g

const DIGEST_BYTES = 32

/**
 * The Node release, V8 and architecture a cache is keyed to, hashed before the file's bytes: a
 * cache made by any other is not given to V8 (read when a file loads, not when this module does).
 */
const runtime = (): string => `${process.version} ${process.versions.v8} ${process.arch} ${process.platform}\0`

const importModule = (specifier: string): Promise<unknown> => import(specifier)

/** Node's module cache (`require.cache`), one for the process. */
const moduleCache = createRequire(import.meta.url).cache

interface Loaded {
  script: Script
  digest: Buffer
  /** Whether V8 took the cache the build made (false: none, another version's, or other flags). */
  cached: boolean
}

// Shared by every copy of this module in a process (bin/run.js loads its CommonJS copy,
// dist/core/code-cache.cjs; the commands their bundle's; the build dist/'s): what was loaded, for
// the build to write caches of.
const LOADED_KEY = Symbol.for('scansync.codeCache.loaded')
const loaded: Map<string, Loaded> = ((globalThis as Record<symbol, unknown>)[LOADED_KEY] as Map<string, Loaded> | undefined) ?? new Map()
;(globalThis as Record<symbol, unknown>)[LOADED_KEY] = loaded

/**
 * The exports of a CommonJS file the build wrote, registered in `require.cache` as `require` would
 * (a later `require` of the same file gets the same module); undefined when the file is not there
 * (running from the sources, before any build).
 */
export function requireBuilt(url: URL): unknown {
  const file = fileURLToPath(url)
  const existing = moduleCache[file]
  if (existing) return existing.exports
  const wrapped = readWrapped(file)
  if (wrapped === undefined) return undefined
  const bytes = wrapped.subarray(HEAD.length, wrapped.length - TAIL.length)
  const digest = createHash('sha256').update(runtime(), 'latin1').update(bytes).digest()
  const cachedData = cacheFor(file, digest)
  const script = new Script(sourceOf(wrapped), { filename: file, cachedData })
  const module = new Module(file)
  module.filename = file
  moduleCache[file] = module
  try {
    // `this` at a CommonJS file's top level is its exports (TypeScript's helpers read `this && this.__awaiter`).
    script.runInThisContext().call(module.exports, module.exports, createRequire(file), module, file, dirname(file), importModule)
  } catch (error) {
    delete moduleCache[file]
    throw error
  }
  module.loaded = true
  loaded.set(file, { script, digest, cached: cachedData !== undefined && !script.cachedDataRejected })
  return module.exports
}

/**
 * The file's bytes between HEAD and TAIL, in one buffer (undefined when there is no such file).
 * `HEAD + text + TAIL` is a string V8 must copy whole before it compiles; and a string over 128 KB
 * (each of these files) is memory touched for the first time, page by page, which is dear on some
 * machines (docs/performance.md, twenty-third round): one buffer and one string of it, no copy.
 */
function readWrapped(file: string): Buffer | undefined {
  let fd: number
  try {
    fd = openSync(file, 'r')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  try {
    const size = fstatSync(fd).size
    const wrapped = Buffer.allocUnsafe(HEAD.length + size + TAIL.length)
    wrapped.write(HEAD, 0, 'latin1')
    let read = 0
    for (let got = -1; got !== 0 && read < size; read += got) got = readSync(fd, wrapped, HEAD.length + read, size - read, null)
    // A file that changed size while read is read again the ordinary way.
    if (read !== size || readSync(fd, Buffer.alloc(1), 0, 1, null) !== 0) return wrappedCopy(readFileSync(file))
    wrapped.write(TAIL, HEAD.length + size, 'latin1')
    return wrapped
  } finally {
    closeSync(fd)
  }
}

function wrappedCopy(bytes: Buffer): Buffer {
  return Buffer.concat([Buffer.from(HEAD, 'latin1'), bytes, Buffer.from(TAIL, 'latin1')])
}

/**
 * The source V8 compiles. A file of ASCII only (the build escapes what its bundles would hold
 * else, scripts/bundle.js) is read as one byte a character; anything else as UTF-8, which V8 then
 * holds at two bytes a character.
 */
const sourceOf = (wrapped: Buffer): string => wrapped.toString(isAscii(wrapped) ? 'latin1' : 'utf8')

/** V8's cached data for these bytes of the file, if the build made it from them. */
function cacheFor(file: string, digest: Buffer): Buffer | undefined {
  let cache: Buffer
  try {
    cache = readFileSync(codeCacheFile(file))
  } catch {
    return undefined
  }
  if (cache.length <= DIGEST_BYTES || !cache.subarray(0, DIGEST_BYTES).equals(digest)) return undefined
  return cache.subarray(DIGEST_BYTES)
}

/** Which files this process loaded through `requireBuilt`, and whether V8 took each one's cache. */
export function codeCacheReport(): Array<{ file: string; cached: boolean }> {
  return [...loaded].map(([file, { cached }]) => ({ file, cached }))
}

/**
 * For the build (scripts/code-cache.js): writes the code cache of every file loaded so far, with
 * the functions its warm-up compiled. Returns the files written.
 */
export function writeCodeCaches(): string[] {
  for (const [file, { script, digest }] of loaded) {
    // Whole or not at all, for a run reading it meanwhile (V8 refuses a cache cut short, not one half old).
    const partial = `${codeCacheFile(file)}.${process.pid}.partial`
    writeFileSync(partial, Buffer.concat([digest, script.createCachedData()]))
    renameSync(partial, codeCacheFile(file))
  }
  return [...loaded.keys()]
}
