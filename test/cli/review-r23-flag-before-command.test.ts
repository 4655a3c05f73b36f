// A flag typed before the command (`scansync --token=$TOKEN plan .`, as many CLIs take a global
// token) is taken by oclif for the command's name: the usage error repeated it whole, value and
// all (`Error: unknown command "--token=…"`), on stderr where CI keeps it. A nonexistent flag
// typed after the command has its value printed as (redacted); so must this one, whatever the
// value holds (spaces, colons), and whether or not the value is a secret scansync knows.
import { describe, expect, it } from 'vitest'
import { spawnCli } from '../helpers/cli.js'

const VALUE = 'typed-Tok3n-51c0e9a7b2'

describe.concurrent('a flag with a value typed before the command', () => {
  it.each([
    [[`--token=${VALUE}`, 'plan', '.'], '--token'],
    [[`--token=${VALUE}`], '--token'],
    [[`-t=${VALUE}`, 'validate'], '-t'],
    [[`--password=a:b ${VALUE}`, 'apply'], '--password'],
  ])('%j: the flag named, its value not repeated, exit 1', async (args, flag) => {
    const run = await spawnCli(args)
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(`Error: unknown command "${flag}=(redacted)". See scansync --help for the commands.\n`)
    expect(run.stderr).not.toContain(VALUE)
  })
})
