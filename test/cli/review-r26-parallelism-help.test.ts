// Review round 26 (every --help, run as written): `scansync plan --parallelism 300` answered
// "Expected an integer less than or equal to 256 … See scansync plan --help", and the help said
// only "Requests in flight at once (or SCANSYNC_PARALLELISM; default 8)", its value shown as
// <value>: the range the error enforces (and the README states, 1–256) was nowhere in it. The
// help of every command taking it now gives the range, and the value as N (as the contract writes
// `--parallelism N`).
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

describe.concurrent('--parallelism in --help', () => {
  it.each(['plan', 'drift', 'apply', 'audit', 'import'])('scansync %s --help gives its range, the one the error enforces', async (command) => {
    const refused = await runCli([command, '--parallelism', '300'])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(`See scansync ${command} --help`)
    const { stdout } = await runCli([command, '--help'])
    const squashed = stdout.replace(/\s+/g, ' ')
    expect(squashed).toContain('--parallelism=N Requests in flight at once, 1–256 (or SCANSYNC_PARALLELISM; default 8).')
    expect(squashed).toContain('[--parallelism N]')
  })
})
