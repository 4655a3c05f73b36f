// A command that takes no (or fewer) arguments, given one more, says which: `Unexpected argument:
// X`. That line was rebuilt from the command line as typed, after the redaction of oclif's own
// message, so a token passed where it does not belong (`scansync schema $SCANSYNC_API_TOKEN`, a CI
// step's arguments shifted by one) was printed in clear on stderr, where every other usage error
// (unknown flag, unknown command, a flag's value) prints it as (redacted).
import { describe, expect, it } from 'vitest'
import { spawnCli } from '../helpers/cli.js'

const TOKEN = 'usage-Tok3n-9d2c41e7b5a8'
const STATE_KEY = 'usage-St4teKey-3f6a90c1d2'
const env = { SCANSYNC_API_TOKEN: TOKEN, SCANSYNC_STATE_KEY: STATE_KEY }

describe.concurrent('an unexpected argument holding the token or the state key', () => {
  it.each([
    [['schema', TOKEN], /^Error: Unexpected argument: \(redacted\)\. See scansync schema --help\.\n$/],
    [['version', 'a', TOKEN.toUpperCase()], /^Error: Unexpected arguments: a, \(redacted\)\. See scansync version --help\.\n$/],
    [['import', 'out', STATE_KEY], /^Error: Unexpected arguments: out, \(redacted\)\. See scansync import --help\.\n$/],
  ])('%j: named, redacted', async (args, expected) => {
    const run = await spawnCli(args, { env })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(expected)
    for (const secret of [TOKEN, STATE_KEY]) expect((run.stdout + run.stderr).toLowerCase()).not.toContain(secret.toLowerCase())
  })
})
