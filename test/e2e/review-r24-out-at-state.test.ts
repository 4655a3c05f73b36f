// Review round 24 (saved plans, staleness and the state file): `plan --out` naming the secrets
// state the plan reads (`--out .scansync/state.json`, or the same file as --state) wrote the saved
// plan over it: the records of every secret applied were gone, and every run after stopped at "the
// secrets state … is not a scansync state file; move it away". It is refused before any work, the
// state left as it was.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { appliedWithState, cli, EXAMPLE_SECRETS } from './helpers.js'

describe('plan --out naming the secrets state', () => {
  it.each([
    ['the default state', ['--out', '.scansync/state.json']],
    ['the state named by --state', ['--state', '.scansync/state.json', '--out', './.scansync/../.scansync/state.json']],
  ])('%s: refused, the state kept, the next plan still exact', async (_, flags) => {
    const { em, dir, state } = await appliedWithState()
    const before = readFileSync(state, 'utf8')
    const run = await cli(em, dir, ['plan', ...flags], EXAMPLE_SECRETS)
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`--out ${flags.at(-1)} is the secrets state this plan reads`)
    expect(run.stderr).not.toContain('Saved the plan')
    expect(run.stderr).not.toContain('still holds an earlier plan')
    expect(readFileSync(state, 'utf8')).toBe(before)
    const after = await cli(em, dir, ['plan', '--detailed-exitcode'], EXAMPLE_SECRETS)
    expect(after.code, after.stderr).toBe(0)
  })
})
