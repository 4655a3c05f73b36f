// Review round 18 (the command line as users type it): a file flag given an empty value, as a CI
// script passes `--plan "$PLAN_FILE"` with the variable unset, was taken as the flag left out:
// `apply --plan "" --auto-approve` applied the configuration of the current directory instead of
// the reviewed saved plan, `plan --out ""` saved nothing (exit 0), `import --out ""` wrote its
// files into the current directory. Each is now a usage error naming the flag; nothing is sent.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleConfig, tempdir } from '../e2e/helpers.js'

const notRead = (method: string) => method !== 'GET'

describe.concurrent('an empty value for a file or directory flag', () => {
  it('apply --plan "" --auto-approve applies nothing (it applied the configuration in the current directory)', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    const { code, stdout, stderr } = await cli(em, dir, ['apply', '--plan', '', '--auto-approve'])
    expect(stderr).toBe('Error: --plan is empty: give the file saved by scansync plan --out, or leave the flag out to plan from the configuration. See scansync apply --help.\n')
    expect([code, stdout]).toEqual([1, ''])
    expect(em.requests().filter((r) => notRead(r.method))).toEqual([])
    expect(existsSync(join(dir, '.scansync'))).toBe(false)
  })

  it('plan --out "" and --state "" are refused, not run as if the flag were left out', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    const out = await cli(em, dir, ['plan', '.', '--out='])
    expect(out.stderr).toBe('Error: --out is empty: give the file to save the plan to, or leave the flag out. See scansync plan --help.\n')
    expect([out.code, out.stdout]).toEqual([1, ''])
    for (const command of ['plan', 'drift', 'apply']) {
      const state = await cli(em, dir, [command, '.', '--state', '', '--auto-approve'].filter((a) => command === 'apply' || a !== '--auto-approve'))
      expect(state.stderr, command).toBe(
        `Error: --state is empty: give the secrets state file, or leave the flag out for .scansync/state.json in the configuration directory. See scansync ${command} --help.\n`,
      )
      expect(state.code).toBe(1)
    }
    expect(em.requests().filter((r) => notRead(r.method))).toEqual([])
  })

  it('import --out "" writes no file into the current directory', async () => {
    const em = await emulator()
    const dir = tempdir()
    const { code, stderr } = await cli(em, dir, ['import', '--kind', 'agent', '--all', '--out', ''])
    expect(stderr).toBe('Error: --out is empty: give the directory to write the files into, or leave the flag out to write to stdout. See scansync import --help.\n')
    expect(code).toBe(1)
    expect(existsSync(join(dir, 'agents.yaml'))).toBe(false)
  })
})
