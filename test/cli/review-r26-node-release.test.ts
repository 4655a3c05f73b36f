// A code cache made by one release of Node is taken only by that release. V8 checks a cache's
// version by its own number alone (11.3.244.8 in every Node 20 from 20.10 to 20.20), not the
// patches each Node release adds to it: a package built (npm pack, or a clone's build) on Node
// 20.20 and run on 20.18 had V8 take the caches, and every command but --version ended in a
// segmentation fault, nothing printed (exit 139). src/core/code-cache.ts now keys each cache to the
// release, V8 and architecture that made it; another release loads the file without it.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/cli.js'

const LOADER = pathToFileURL(join(ROOT, 'dist', 'core', 'code-cache.js')).href
const FLAGS = pathToFileURL(join(ROOT, 'bin', 'v8-flags.js')).href

/** Runs `body` in a fresh process with a run's V8 flags and the loader imported, as Node `release` (process.version and V8's full version as that release reports them); its stdout parsed as JSON. */
function inRelease(release: { node: string; v8: string }, body: string): unknown {
  const script = [
    `Object.defineProperty(process, 'version', { value: ${JSON.stringify(release.node)} })`,
    `Object.defineProperty(process.versions, 'v8', { value: ${JSON.stringify(release.v8)} })`,
    `import(${JSON.stringify(FLAGS)}).then(async ({ tuneV8 }) => {`,
    'tuneV8()',
    `const loader = await import(${JSON.stringify(LOADER)})`,
    body,
    '})',
  ].join('\n')
  const run = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME } })
  expect(run.status, run.stderr).toBe(0)
  return JSON.parse(run.stdout)
}

const work = mkdtempSync(join(tmpdir(), 'scansync-node-release-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('a code cache and the Node release that made it', () => {
  it('is taken by the release that made it, and not given to V8 under another release of the same V8', () => {
    const file = join(work, 'answer.cjs')
    writeFileSync(file, "module.exports = 'answer'")
    const builder = { node: process.version, v8: process.versions.v8 }
    const load = `loader.requireBuilt(new URL('file://${file}')); console.log(JSON.stringify(loader.codeCacheReport()[0].cached))`
    expect(inRelease(builder, `loader.requireBuilt(new URL('file://${file}')); console.log(JSON.stringify(loader.writeCodeCaches()))`)).toEqual([file])
    expect(inRelease(builder, load)).toBe(true)
    // Another Node release whose V8 has the same number: V8 itself would take the cache.
    const v8Number = process.versions.v8.replace(/-.*$/, '')
    expect(inRelease({ node: 'v20.0.0-other', v8: `${v8Number}-node.0` }, load)).toBe(false)
    expect(inRelease({ node: 'v20.0.0-other', v8: process.versions.v8 }, load)).toBe(false)
  })
})
