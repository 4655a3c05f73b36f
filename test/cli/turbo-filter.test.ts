// The functions that run once or a few times per resource of a plan (the diff, the checks of
// declared resources, the after-apply shapes, the policy rules' validators…) are named
// `unoptimised…`, and bin/v8-flags.js keeps V8's optimising compiler away from them: over a
// plan's few thousand resources, TurboFan cost more CPU than it saved (docs/performance.md). The
// rules' validators get that name from src/schema/policy-ajv.ts, which rewrites only their header.
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { dump } from 'js-yaml'
import { describe, expect, it } from 'vitest'
// @ts-expect-error the benchmark's fixtures are plain JavaScript without types
import { buildAccount, writeConfig } from '../../bench/fixtures.js'
// @ts-expect-error the benchmark's rules are plain JavaScript without types
import { RULES } from '../../bench/policy-rules.js'
import { createPolicyAjv, namedForTheFilter, UNOPTIMISED_PREFIX } from '../../src/schema/policy-ajv.js'
import type { EmulatorSeed } from '../../src/emulator/index.js'
import { BIN, collectOutput, type CliResult } from '../helpers/cli.js'
import { emulator, envFor, ROOT, tempdir } from '../e2e/helpers.js'

describe('the rules’ validators are named for the filter', () => {
  const plain = () => createPolicyAjv({ ajv: { code: { optimize: false } } })

  it('get the prefix, and judge as Ajv’s own code judges, even when a rule’s own text looks like the header', () => {
    const schemas = [
      { required: ['labels'], properties: { labels: { contains: { properties: { name: { const: 'validate0' } } } } } },
      { properties: { validate0: { const: 'return function validate0(' } } },
      { properties: { name: { pattern: 'validate\\d+', minLength: 3 } } },
      { definitions: { self: { properties: { child: { $ref: '#/definitions/self' } }, required: ['name'] } }, $ref: '#/definitions/self' },
    ]
    const instances = [
      {},
      { labels: [{ name: 'validate0' }] },
      { labels: [{ name: 'validate1' }] },
      { validate0: 'return function validate0(' },
      { validate0: 'return function validate1(' },
      { name: 'validate12' },
      { name: 'x' },
      { name: 'a', child: { name: 'b', child: {} } },
    ]
    const renamed = createPolicyAjv()
    const reference = plain()
    for (const schema of schemas) {
      const validate = renamed.compile(schema)
      const expected = reference.compile(schema)
      expect(validate.name).toMatch(new RegExp(`^${UNOPTIMISED_PREFIX}Rule_validate\\d+$`))
      expect(expected.name).toMatch(/^validate\d+$/)
      for (const instance of instances) {
        expect(validate(instance), JSON.stringify({ schema, instance })).toBe(expected(instance))
        expect(validate.errors).toEqual(expected.errors)
      }
    }
  })

  it('leaves code of another shape as it is', () => {
    const code = 'const schema0 = "return function validate0(";return function validate0(data){return true}'
    expect(namedForTheFilter(code)).toBe(code)
    expect(namedForTheFilter('return 1')).toBe('return 1')
  })
})

/** A plan of 1,260 resources with the benchmark's twenty rules, under `node --trace-opt [flags]`: the functions V8 set out to optimise. */
async function tracedPlan(flags: string[]): Promise<{ run: CliResult; optimised: Set<string> }> {
  const account = buildAccount({ targets: 600, assets: 600, agents: 60 }) as { seed: EmulatorSeed; config: object }
  const em = await emulator({ seed: account.seed })
  const dir = tempdir()
  writeConfig(join(dir, 'config'), account.config, 300)
  writeFileSync(join(dir, 'policies.yaml'), dump({ policies: RULES }, { flowLevel: -1, lineWidth: 200 }))
  const args = [...flags, '--trace-opt', BIN, 'plan', join(dir, 'config'), join(dir, 'policies.yaml'), '--format', 'json', '--state', join(dir, 'state.json')]
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...envFor(em) }, stdio: ['ignore', 'pipe', 'pipe'] })
  const run = await collectOutput(child)
  // V8 marks a function for optimisation on the main thread, before a helper thread compiles it:
  // counting marks, not finished compiles, keeps a loaded machine from hiding one. Only TurboFan's
  // (a newer V8 may also mark a function for its mid-tier compiler, which the filter leaves be).
  const optimised = new Set(
    run.stdout
      .split('\n')
      .filter((line) => /^\[(marking|compiling method) /.test(line) && line.includes('TURBOFAN'))
      .map((line) => /<JSFunction (\S+)/.exec(line)?.[1] ?? ''),
  )
  return { run, optimised }
}

const unoptimised = (names: Set<string>) => [...names].filter((name) => name.startsWith(UNOPTIMISED_PREFIX))

describe('V8 and the unoptimised functions in a plan', () => {
  it('optimises them when node is told to optimise everything (the control)', async () => {
    const { run, optimised } = await tracedPlan(['--turbo-filter=*'])
    expect(run.code, run.stderr).toBe(0)
    expect(unoptimised(optimised).length).toBeGreaterThan(0)
  })

  it('leaves them alone in a plan run through bin/run.js, and optimises the rest', async () => {
    const { run, optimised } = await tracedPlan([])
    expect(run.code, run.stderr).toBe(0)
    expect(unoptimised(optimised)).toEqual([])
    expect(optimised.size).toBeGreaterThan(20)
  })
})
