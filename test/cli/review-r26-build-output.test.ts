// The build's last step (scripts/code-cache.js) warms the code caches with a validate and plans
// run through the CLI. A run writes a file given as stdout straight to its descriptor (core/io.ts
// wholeWrites): with the build's stdout a file (`npm run build > build.log`, or `npm pack --json >
// pack.json`, whose prepare runs the build), the warm-up's "Valid: …" and plan JSON landed in it,
// and npm's JSON after them could not be parsed. The build's own line goes to stderr: its stdout stays empty.
import { spawnSync } from 'node:child_process'
import { closeSync, openSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/cli.js'
import { tempdir } from '../e2e/helpers.js'

describe('the build with its output sent to a file', () => {
  it('writes nothing there, not the output of the runs that warm the code caches; its own line goes to stderr', () => {
    const dir = tempdir()
    const out = openSync(join(dir, 'build.log'), 'w')
    const err = openSync(join(dir, 'build.err'), 'w')
    try {
      const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'code-cache.js')], { cwd: ROOT, stdio: ['ignore', out, err], env: { PATH: process.env.PATH, HOME: process.env.HOME } })
      expect(run.status).toBe(0)
    } finally {
      closeSync(out)
      closeSync(err)
    }
    expect(readFileSync(join(dir, 'build.log'), 'utf8')).toBe('')
    expect(readFileSync(join(dir, 'build.err'), 'utf8')).toMatch(/^Code caches: [^\n]*\n$/)
  })
})
