// A user of apt, npm init or Pulumi confirms with `--yes` or `-y`; scansync, as Terraform, wants
// `--auto-approve`, too far from either for a spelling suggestion, so the usage error said only
// "unknown flag --yes". It now names the flag meant, for the commands that have it.
import { describe, expect, it } from 'vitest'
import { spawnCli } from '../helpers/cli.js'

describe.concurrent("another tool's word for a flag", () => {
  it.each([
    [['apply', 'config', '--yes'], 'Error: unknown flag --yes (did you mean --auto-approve?). See scansync apply --help.\n'],
    [['apply', '-y'], 'Error: unknown flag -y (did you mean --auto-approve?). See scansync apply --help.\n'],
    [['apply', '--non-interactive'], 'Error: unknown flag --non-interactive (did you mean --auto-approve?). See scansync apply --help.\n'],
    // plan has no such flag: nothing to suggest.
    [['plan', '--yes'], 'Error: unknown flag --yes. See scansync plan --help.\n'],
  ])('%j: exit 1, the flag meant named', async (args, expected) => {
    const run = await spawnCli(args)
    expect(run.stderr).toBe(expected)
    expect(run.stdout).toBe('')
    expect(run.code).toBe(1)
  })
})
