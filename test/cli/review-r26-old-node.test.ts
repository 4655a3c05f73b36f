// A Node.js older than the one package.json's "engines" names: npm only warns at install (an
// EBADENGINE line among others), and on Node 16 every command but --version ended in a stack trace
// of Node's loader (`ERR_UNKNOWN_BUILTIN_MODULE: node:readline/promises`), naming no version. Each
// command now says which Node.js scansync needs and which one ran it, before loading anything.
// Node 20 cannot run an older Node here: the process is told it is one (process.version and
// process.versions.node, set by a file loaded before bin/run.js), as Node 16 and 20.10 say.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/cli.js'

const work = mkdtempSync(join(tmpdir(), 'scansync-old-node-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const NEEDED = /^>=(\d+\.\d+\.\d+)$/.exec(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).engines.node)![1]!

/** bin/run.js with `args`, in a process that says it is Node `version`. */
function runAs(version: string, args: string[]) {
  const preload = join(work, `as-${version}.cjs`)
  writeFileSync(preload, `Object.defineProperty(process, 'version', { value: 'v${version}' })\nObject.defineProperty(process.versions, 'node', { value: '${version}' })\n`)
  return spawnSync(process.execPath, ['--require', preload, join(ROOT, 'bin', 'run.js'), ...args], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' } })
}

describe('a Node.js older than scansync needs', () => {
  for (const version of ['16.20.2', '18.20.8', '20.10.0', '20.18.0'])
    it(`Node ${version}: each command says which Node.js it needs, exit 1, nothing else loaded`, () => {
      for (const args of [['validate', 'examples/config'], ['--help'], ['--version']]) {
        const run = runAs(version, args)
        expect(run.stderr).toBe(`Error: scansync needs Node.js ${NEEDED} or later; this is Node.js v${version} (${process.execPath}).\n`)
        expect(run.stdout).toBe('')
        expect(run.status).toBe(1)
      }
    })

  for (const version of [NEEDED, '20.20.2', '22.12.0', '24.0.0', '30.1.2'])
    it(`Node ${version} runs as before`, () => {
      const run = runAs(version, ['validate', 'examples/config'])
      expect(run.stderr).toBe('')
      expect(run.stdout).toMatch(/^Valid: /)
      expect(run.status).toBe(0)
    })
})
