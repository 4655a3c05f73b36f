// A word typed as NAME=VALUE after a command that takes no argument there (`scansync schema
// SCANSYNC_API_TOKEN=$TOKEN`, `scansync completion bash --token=…` after `--`, an environment
// assignment written after the command) is said as an unexpected argument. oclif's own message
// ("command schema:SCANSYNC_API_TOKEN=… not found") had its value (redacted), as for a word typed
// before the command; the line scansync prints instead names the argument again from argv, and
// printed the value in clear on stderr.
import { describe, expect, it } from 'vitest'
import { spawnCli } from '../helpers/cli.js'

const VALUE = 'unexpected-Secret-5b81c0e3f7'

describe.concurrent('an unexpected argument typed as NAME=VALUE', () => {
  it.each([
    [['schema', `SCANSYNC_API_TOKEN=${VALUE}`], /^Error: Unexpected argument: SCANSYNC_API_TOKEN=\(redacted\)\. See scansync schema --help\.\n$/],
    [['schema', '--', `--token=${VALUE}`], /^Error: Unexpected argument: --token=\(redacted\)\. See scansync schema --help\.\n$/],
    [['completion', 'bash', `SCANSYNC_API_TOKEN=${VALUE}`], /^Error: Unexpected argument: SCANSYNC_API_TOKEN=\(redacted\)\. See scansync completion --help\.\n$/],
    [['version', 'a', `PASSWORD=x, ${VALUE}`], /^Error: Unexpected arguments: a, PASSWORD=\(redacted\)\. See scansync version --help\.\n$/],
  ])('%j: named, its value not printed, exit 1', async (args, expected) => {
    const run = await spawnCli(args)
    expect(run.stderr).not.toContain(VALUE)
    expect(run.stderr).toMatch(expected)
    expect(run.stdout).toBe('')
    expect(run.code).toBe(1)
  })

  it('an unexpected argument without a value is still named as typed', async () => {
    const run = await spawnCli(['version', 'a', 'extra'])
    expect(run.stderr).toBe('Error: Unexpected arguments: a, extra. See scansync version --help.\n')
    expect(run.code).toBe(1)
  })
})
