// A flag and its value passed as one word with a space between them, as a CI step's quoted
// variable passes them (`FLAGS="--token $TOKEN"; scansync "$FLAGS" plan`): oclif repeats the word
// whole, as the command's name or as a flag that does not exist, and the usage error printed the
// value in clear on stderr. A word typed as NAME=VALUE has its value (redacted); so has this one,
// whose NAME ends at the space.
import { describe, expect, it } from 'vitest'
import { spawnCli } from '../helpers/cli.js'

const VALUE = 'spaced-Secret-6a1f03d8e4'

describe.concurrent('a flag and its value typed as one word with a space between them', () => {
  it.each([
    [[`--token ${VALUE}`, 'plan'], '--token'],
    [[`--token ${VALUE}`], '--token'],
    [['plan', `--token ${VALUE}`], '--token'],
    [['validate', `-t\t${VALUE} x`], '-t'],
  ])('%j: the flag named, its value not printed, exit 1', async (args, flag) => {
    const run = await spawnCli(args)
    expect(run.stderr).not.toContain(VALUE)
    expect(run.stderr).toMatch(new RegExp(`^Error: .*${flag}\\s\\(redacted\\)`))
    expect(run.stdout).toBe('')
    expect(run.code).toBe(1)
  })
})
