// A word typed as NAME=VALUE that scansync does not take (a flag typed before the command,
// `scansync --token=$TOKEN plan`; an environment assignment written after the program's name,
// `scansync SCANSYNC_API_TOKEN=$TOKEN plan`; a flag that does not exist, `plan --password=$PW`)
// has its value printed as (redacted) in the usage error. bin/run.js found the value with a
// pattern on oclif's message: a name of ASCII letters and dashes only, a value up to the first
// ` not found` (or, for a flag after the command, the first space or comma). A password holding
// a comma, a space or the words ` not found`, a flag typed with a dash a document or chat turned
// into `—`, or a NAME without dashes printed the value, or its end, in clear on stderr.
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
})
