// Review round 18 (the fixes of this round, attacked): a switch written with a value is refused
// naming the switch (`--quiet=false`), but its short form was not: `scansync plan -q=false` and
// `scansync init -q=false` said 'unknown flag -=false', a flag no one typed. It names -q now.
import { describe, expect, it } from 'vitest'
import { readdirSync } from 'node:fs'
import { tempdir } from '../e2e/helpers.js'
import { runCli } from '../helpers/cli.js'

describe('a short switch written with a value (-q=value)', () => {
  it('is refused naming the switch, in every command that has -q; nothing is written', async () => {
    const dir = tempdir()
    for (const args of [['init', '-q=false'], ['validate', '-q=1'], ['plan', '.', '-q='], ['drift', '-q=true'], ['apply', '-q=no', '--auto-approve']]) {
      const { code, stdout, stderr } = await runCli(args, { cwd: dir })
      expect(stderr, args.join(' ')).toBe(`Error: -q takes no value: write -q alone to turn it on, or leave it out. See scansync ${args[0]} --help.\n`)
      expect([code, stdout]).toEqual([1, ''])
    }
    expect(readdirSync(dir)).toEqual([])
  })
})
