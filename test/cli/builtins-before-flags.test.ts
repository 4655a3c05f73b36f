// bin/v8-flags.js loads the Node.js modules a command needs before it changes V8's flags: Node
// compiles its own modules with a code cache that V8 refuses once any flag differs from its
// default, and those loaded later compile from source, 3–4 times slower (docs/performance.md).
// A probe loaded with --import marks the first flag change and lists, at exit, Node's modules
// loaded after it; a dependency that starts using another one of Node's modules fails here.
import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BIN, collectOutput } from '../helpers/cli.js'
import { emulator, envFor, exampleConfig, ROOT, tempdir } from '../e2e/helpers.js'

const PROBE = `
import v8 from 'node:v8'
import { syncBuiltinESMExports } from 'node:module'
import { writeFileSync } from 'node:fs'
const setFlags = v8.setFlagsFromString
let changedAt
v8.setFlagsFromString = function (flags) {
  changedAt ??= process.moduleLoadList.length
  return setFlags.call(this, flags)
}
syncBuiltinESMExports()
process.on('exit', () => {
  const after = changedAt === undefined ? [] : process.moduleLoadList.slice(changedAt)
  const modules = after.filter((entry) => entry.startsWith('NativeModule ')).map((entry) => entry.slice('NativeModule '.length))
  writeFileSync(process.env.PROBE_OUT, JSON.stringify({ flagsChanged: changedAt !== undefined, modules }))
})
`

/** Node's modules loaded after the run's first change of V8's flags. */
async function modulesAfterFlags(args: string[], env: Record<string, string | undefined>): Promise<{ code: number | null; flagsChanged: boolean; modules: string[] }> {
  const dir = tempdir()
  writeFileSync(join(dir, 'probe.mjs'), PROBE)
  const out = join(dir, 'out.json')
  const child = spawn(process.execPath, ['--import', join(dir, 'probe.mjs'), BIN, ...args], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', PROBE_OUT: out, ...env } as NodeJS.ProcessEnv })
  const run = await collectOutput(child)
  return { code: run.code, ...(JSON.parse(readFileSync(out, 'utf8')) as { flagsChanged: boolean; modules: string[] }) }
}

describe('Node’s modules and V8’s flags', () => {
  it('plan, apply, validate, audit, import, init and schema load every public module of Node they use before the flags change', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    const policies = join(ROOT, 'examples', 'policies')
    const state = ['--state', join(dir, 'state.json')]
    const runs = {
      plan: ['plan', dir, policies, '--format', 'json', ...state],
      apply: ['apply', dir, '--auto-approve', ...state],
      validate: ['validate', dir, policies],
      audit: ['audit', dir, policies, '--format', 'json'],
      import: ['import', '--kind', 'target,asset,agent', '--all', '--out', join(tempdir(), 'imported')],
      init: ['init', join(tempdir(), 'started'), '-q'],
      schema: ['schema'],
    }
    for (const [command, args] of Object.entries(runs)) {
      const run = await modulesAfterFlags(args, envFor(em))
      expect([0, 1, 2], command).toContain(run.code)
      expect(run.flagsChanged, command).toBe(true)
      // Node's internal modules that load with a first use (`fs.rmSync`'s recursive walk, say) are left to that use.
      expect(run.modules.filter((name) => !name.startsWith('internal/')), command).toEqual([])
    }
  })

  it('scansync --version changes no flag and loads none of them', async () => {
    const run = await modulesAfterFlags(['--version'], {})
    expect(run.code).toBe(0)
    expect(run.flagsChanged).toBe(false)
  })
})
