// Review round 18 (the command line as users type it): a switch (a flag that takes no value)
// written with one, `--force=false`, as scripts write flags. oclif split it into the switch, turned
// on, and a word `false` that became an argument: `init --force=false` wrote its files into
// ./false, replacing any there; `plan config --detailed-exitcode=false` said
// "false:1:1: no such file or directory". It is a usage error naming the switch.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleConfig, tempdir } from '../e2e/helpers.js'
import { runCli } from '../helpers/cli.js'

describe.concurrent('a switch written with a value (--switch=value)', () => {
  it('init --force=false writes nothing (no folder named "false") and names --force', async () => {
    const dir = tempdir()
    for (const args of [['init', '--force=false'], ['init', 'config', '--force=false']]) {
      const { code, stdout, stderr } = await runCli(args, { cwd: dir })
      expect(stderr, args.join(' ')).toBe('Error: --force takes no value: write --force alone to turn it on, or leave it out. See scansync init --help.\n')
      expect(code).toBe(1)
      expect(stdout).toBe('')
    }
    expect(existsSync(join(dir, 'false'))).toBe(false)
    expect(existsSync(join(dir, 'config'))).toBe(false)
  })

  it('plan, drift, apply and validate name the switch, not a file called after its value; nothing is sent', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    for (const args of [
      ['plan', '.', '--detailed-exitcode=false'],
      ['drift', '--unmanaged=true', '.'],
      ['apply', '.', '--auto-approve=false'],
      ['plan', '--quiet=yes'],
    ]) {
      const { code, stderr } = await cli(em, dir, args)
      const flag = args.find((a) => a.startsWith('--'))!.replace(/=.*/, '')
      expect(stderr, args.join(' ')).toBe(`Error: ${flag} takes no value: write ${flag} alone to turn it on, or leave it out. See scansync ${args[0]} --help.\n`)
      expect(code).toBe(1)
    }
    const { code, stderr } = await runCli(['validate', '.', '--quiet=true'], { cwd: dir })
    expect(stderr).toBe('Error: --quiet takes no value: write --quiet alone to turn it on, or leave it out. See scansync validate --help.\n')
    expect(code).toBe(1)
    expect(em.requests().filter((r) => r.method !== 'GET')).toEqual([])
  })

  it('a switch alone and a word after -- are still taken as before', async () => {
    const dir = exampleConfig()
    const quiet = await runCli(['validate', '--quiet', '.'], { cwd: dir })
    expect([quiet.code, quiet.stdout, quiet.stderr]).toEqual([0, '', ''])
    // After `--` every word is a path, whatever it looks like.
    const dashed = await runCli(['validate', '--', '--quiet=true'], { cwd: dir })
    expect(dashed.stderr).toContain('--quiet=true:1:1: no such file or directory')
    expect(dashed.code).toBe(1)
  })
})
