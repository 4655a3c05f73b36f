// Short flags typed together with a value (`scansync plan -qt=$TOKEN`, `"-qt $TOKEN"` from a CI
// step's quoted variable): oclif takes the known switch (-q) off the front and names the rest as
// a flag that does not exist, `-t=…`, a word nobody typed. The value of a word typed as NAME=VALUE
// was (redacted) only where the message held the word as typed: this one printed it in clear on
// stderr (the pattern used before this round had caught `-t=…`).
import { describe, expect, it } from 'vitest'
import { spawnCli } from '../helpers/cli.js'

const VALUE = 'bundled-Secret-2c7e91a04f'

describe.concurrent('short flags typed together, the last one with a value', () => {
  it.each([
    [['plan', `-qt=${VALUE}`], 'Error: unknown flag -t=(redacted). See scansync plan --help.\n'],
    [['validate', `-qqt=${VALUE}`], 'Error: unknown flag -t=(redacted). See scansync validate --help.\n'],
    [['drift', `-qt ${VALUE}`], 'Error: unknown flag -t (redacted). See scansync drift --help.\n'],
    [[`-qt=${VALUE}`, 'plan'], 'Error: unknown command "-qt=(redacted)". See scansync --help for the commands.\n'],
  ])('%j: the flag named, its value not printed, exit 1', async (args, expected) => {
    const run = await spawnCli(args)
    expect(run.stderr).not.toContain(VALUE)
    expect(run.stderr).toBe(expected)
    expect(run.stdout).toBe('')
    expect(run.code).toBe(1)
  })

  it('a value given to a known switch is still said as before', async () => {
    const run = await spawnCli(['plan', '-q=x'])
    expect(run.stderr).toBe('Error: -q takes no value: write -q alone to turn it on, or leave it out. See scansync plan --help.\n')
    expect(run.code).toBe(1)
  })
})
