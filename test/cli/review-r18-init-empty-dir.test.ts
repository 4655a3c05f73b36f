// Review round 18 (the fixes of this round, attacked): an empty PATH is refused by plan, apply,
// drift, validate and audit (`scansync apply "$CONFIG_DIR"` with the variable unset), but init's
// DIR was not: `scansync init "$CONFIG_DIR" --force` with the variable unset wrote (and with
// --force replaced) targets.yaml, assets.yaml and agents.yaml in the current directory, the
// repository's root. An empty DIR is a usage error; DIR left out still writes here.
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempdir } from '../e2e/helpers.js'
import { runCli } from '../helpers/cli.js'

describe('init with an empty DIR', () => {
  it('writes nothing and says DIR is empty; DIR left out writes into the current directory', async () => {
    const dir = tempdir()
    for (const args of [['init', ''], ['init', '', '--force'], ['init', '--', '']]) {
      const { code, stdout, stderr } = await runCli(args, { cwd: dir })
      expect(stderr, args.join(' ')).toBe('Error: DIR is empty: name the directory to write into, or leave DIR out to write into the current directory. See scansync init --help.\n')
      expect([code, stdout]).toEqual([1, ''])
      expect(readdirSync(dir)).toEqual([])
    }
    const left = await runCli(['init', '-q'], { cwd: dir })
    expect([left.code, left.stderr]).toEqual([0, ''])
    expect(existsSync(join(dir, 'targets.yaml'))).toBe(true)
  })
})
