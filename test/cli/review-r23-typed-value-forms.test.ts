// A word typed as NAME=VALUE that scansync does not take (a flag typed before the command,
// `scansync --token=$TOKEN plan`; an environment assignment written after the program's name,
// `scansync SCANSYNC_API_TOKEN=$TOKEN plan`; a flag that does not exist, `plan --password=$PW`)
// has its value printed as (redacted) in the usage error. bin/run.js found the value with a
// pattern on oclif's message: a name of ASCII letters and dashes only, a value up to the first
// ` not found` (or, for a flag after the command, the first space or comma). A password holding
// a comma, a space or the words ` not found`, a flag typed with a dash a document or chat turned
// into `—`, or a NAME without dashes printed the value, or its end, in clear on stderr.
// The same for a word typed as NAME=VALUE after a command that takes no argument there (`scansync
// schema SCANSYNC_API_TOKEN=$TOKEN`, after `--`): the line scansync prints instead of oclif's names
// the argument again from argv, and printed the value in clear. And for short flags typed together
// with a value (`plan -qt=$TOKEN`, `"-qt $TOKEN"`): oclif takes the known switch (-q) off the front
// and names the rest, `-t=…`, a word nobody typed, which the lookup of words as typed missed.
import { describe, expect, it } from 'vitest'
import { spawnCli } from '../helpers/cli.js'

const VALUE = 'typed-Secret-0d4e7b19c2'

describe.concurrent('a value typed as NAME=VALUE where scansync takes none is never repeated', () => {
  it.each([
    [[`--token=a not found ${VALUE}`, 'plan'], /^Error: unknown command "--token=\(redacted\)"\. See scansync --help for the commands\.\n$/],
    [[`--token=x ${VALUE} not found`], /^Error: unknown command "--token=\(redacted\)"\. See scansync --help for the commands\.\n$/],
    [[`SCANSYNC_API_TOKEN=${VALUE}`, 'plan', '.'], /^Error: unknown command "SCANSYNC_API_TOKEN=\(redacted\)"\. See scansync --help for the commands\.\n$/],
    [[`—token=${VALUE}`, 'plan'], /^Error: unknown command "—token=\(redacted\)"\. See scansync --help for the commands\.\n$/],
    [[`--tökén=${VALUE}`, 'validate'], /^Error: unknown command "--tökén=\(redacted\)"\. See scansync --help for the commands\.\n$/],
    [['plan', `--password=a,${VALUE}`], /^Error: unknown flag --password=\(redacted\)\. See scansync plan --help\.\n$/],
    [['plan', `--password=a ${VALUE}`], /^Error: unknown flag --password=\(redacted\)\. See scansync plan --help\.\n$/],
    [['plan', `--pass.word=${VALUE}`], /^Error: unknown flag --pass\.word=\(redacted\)\. See scansync plan --help\.\n$/],
    [['schema', `SCANSYNC_API_TOKEN=${VALUE}`], /^Error: Unexpected argument: SCANSYNC_API_TOKEN=\(redacted\)\. See scansync schema --help\.\n$/],
    [['schema', '--', `--token=${VALUE}`], /^Error: Unexpected argument: --token=\(redacted\)\. See scansync schema --help\.\n$/],
    [['completion', 'bash', `SCANSYNC_API_TOKEN=${VALUE}`], /^Error: Unexpected argument: SCANSYNC_API_TOKEN=\(redacted\)\. See scansync completion --help\.\n$/],
    [['version', 'a', `PASSWORD=x, ${VALUE}`], /^Error: Unexpected arguments: a, PASSWORD=\(redacted\)\. See scansync version --help\.\n$/],
    [['plan', `-qt=${VALUE}`], /^Error: unknown flag -t=\(redacted\)\. See scansync plan --help\.\n$/],
    [['validate', `-qqt=${VALUE}`], /^Error: unknown flag -t=\(redacted\)\. See scansync validate --help\.\n$/],
    [['drift', `-qt ${VALUE}`], /^Error: unknown flag -t \(redacted\)\. See scansync drift --help\.\n$/],
    [[`-qt=${VALUE}`, 'plan'], /^Error: unknown command "-qt=\(redacted\)"\. See scansync --help for the commands\.\n$/],
  ])('%j: said, its value not printed, exit 1', async (args, expected) => {
    const run = await spawnCli(args)
    expect(run.stderr).not.toContain(VALUE)
    expect(run.stderr).toMatch(expected)
    expect(run.stdout).toBe('')
    expect(run.code).toBe(1)
  })

  it('thousands of such words are all said without their values, in one pass over the message', async () => {
    // Each word once looked for over the whole message: 16,000 unknown flags took 47 s; one pass, about 2 s.
    const args = Array.from({ length: 16000 }, (_, i) => `--opt${i}=${VALUE}${i}`)
    const run = await spawnCli(['plan', ...args])
    expect(run.stderr).not.toContain(VALUE)
    expect(run.stderr.match(/--opt\d+=\(redacted\)/g)).toHaveLength(16000)
    expect(run.code).toBe(1)
  })

  it('the value of a flag scansync has is still quoted where it is wrong (not over-redacted)', async () => {
    const run = await spawnCli(['plan', '--format=xml'])
    expect(run.stderr).toContain('--format=xml')
    expect(run.code).toBe(1)
  })

  it('an unexpected argument without a value is still named as typed', async () => {
    const run = await spawnCli(['version', 'a', 'extra'])
    expect(run.stderr).toBe('Error: Unexpected arguments: a, extra. See scansync version --help.\n')
    expect(run.code).toBe(1)
  })

  it('a value given to a known switch is still said as before', async () => {
    const run = await spawnCli(['plan', '-q=x'])
    expect(run.stderr).toBe('Error: -q takes no value: write -q alone to turn it on, or leave it out. See scansync plan --help.\n')
    expect(run.code).toBe(1)
  })
})
