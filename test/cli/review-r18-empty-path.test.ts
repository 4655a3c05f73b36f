// Review round 18 (the command line as users type it): an empty PATH, as a CI script passes
// `scansync apply "$CONFIG_DIR" --auto-approve` with the variable unset, was read as the current
// directory: from a repository root holding two configurations (staging/, production/), that
// applied both. PATH left out still reads the current directory; an empty one is a usage error.
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleConfig } from '../e2e/helpers.js'
import { runCli } from '../helpers/cli.js'

const message = (command: string) =>
  `Error: a PATH is empty: name the configuration directory or file, or leave PATH out to read the current directory. See scansync ${command} --help.\n`

describe.concurrent('an empty PATH', () => {
  it('apply "" --auto-approve sends nothing', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    const { code, stdout, stderr } = await cli(em, dir, ['apply', '', '--auto-approve'])
    expect(stderr).toBe(message('apply'))
    expect([code, stdout]).toEqual([1, ''])
    expect(em.requests().filter((r) => r.method !== 'GET')).toEqual([])
  })

  it('validate, plan, drift and audit refuse it too, beside other paths or after --', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    for (const args of [['plan', '.', ''], ['drift', ''], ['audit', '']]) {
      const { code, stderr } = await cli(em, dir, args)
      expect(stderr, args.join(' ')).toBe(message(args[0]))
      expect(code).toBe(1)
    }
    const dashed = await runCli(['validate', '--', ''], { cwd: dir })
    expect([dashed.code, dashed.stderr]).toEqual([1, message('validate')])
    // PATH left out: the current directory, as before.
    const left = await runCli(['validate'], { cwd: dir })
    expect([left.code, left.stderr]).toEqual([0, ''])
  })
})
