// Review round 19 (a last sweep for secrets in what this round added): a team or agent named in the
// YAML by a literal holding a weak secret of the run (a short variable's value, which the output
// step cannot replace), and not found, was quoted in clear in the error at its line, text and
// github annotations alike (no team is named "Security qz7x"), though the checks of declared lists
// quote such a literal as (sensitive). It is now (sensitive) there too. The real CLI against the emulator.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const WEAK = 'qz7x'
const files = {
  'agents.yaml': 'agents:\n  - id: 3kLx8Qy7Pb2m\n    name: dc-lisbon-agent\n    teams: [{name: "Security qz7x"}]\n',
  'targets.yaml': 'targets:\n  - id: 2DZkoZH8WMEM\n    site: {desc: "${SUFFIX}"}\n',
}

describe('a literal team name holding a weak secret of the run, not found', () => {
  it.each([['text'], ['github']])('plan --format %s says where, never the name', async (format) => {
    const em = await emulator()
    const run = await cli(em, tempdir(files), ['plan', '.', '--format', format], { SUFFIX: WEAK })
    expect(run.code).toBe(1)
    expect(run.stdout + run.stderr).toMatch(/agent 3kLx8Qy7Pb2m: teams\[0\]\.name: no team is named \(sensitive\)/)
    expect((run.stdout + run.stderr).toLowerCase()).not.toContain(WEAK)
  })

  it('apply says so too, and sends nothing', async () => {
    const em = await emulator()
    const run = await cli(em, tempdir(files), ['apply', '.', '--auto-approve'], { SUFFIX: WEAK })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('no team is named (sensitive)')
    expect((run.stdout + run.stderr).toLowerCase()).not.toContain(WEAK)
    expect(em.requests().some((r) => r.method !== 'GET')).toBe(false)
  })
})
