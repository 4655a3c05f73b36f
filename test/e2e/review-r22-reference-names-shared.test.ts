// Review round 22 (attacks on the round's references, secrets and schema changes): a service that
// answers a target's scanning agent, or an agent's teams, by name alone (no id) got an empty plan
// whenever the declared agent or team carried that name, even when another agent or team the
// service holds carries it too and is the one referred to: plan and drift said "No changes." while
// the target scanned from another agent (or the agent served another team). A name two of them
// share settles nothing now: the plan shows the change.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'
import { exampleSeedSharingNames, serviceWithoutIds } from './without-ids.js'

beforeAll(ensureBuilt, 120_000)

describe('a reference answered by a name two agents share', () => {
  it('plans the change to the declared agent, whether or not the agent is declared', async () => {
    // A second agent named as dc-lisbon-agent (3kLx8Qy7Pb2m), the one the target scans from.
    const seed = exampleSeedSharingNames({ agent: true })
    const em = await emulator({ seed })
    const env = await serviceWithoutIds(em)
    for (const agents of ['', 'agents:\n  - id: 3kLx8Qy7Pb2m\n', 'agents:\n  - id: 3kLx8Qy7Pb2m\n    name: dc-lisbon-agent\n']) {
      const dir = tempdir({ 'c.yaml': `targets:\n  - id: 2DZkoZH8WMEM\n    scanning_agent: 3kLx8Qy7Pb2m\n${agents}` })
      const planned = await cli(em, dir, ['plan'], env)
      expect(planned.code, planned.stderr).toBe(0)
      expect(planned.stdout, agents).toContain('~ target 2DZkoZH8WMEM "Shop"\n    scanning_agent: dc-lisbon-agent -> ')
      const drift = await cli(em, dir, ['drift'], env)
      expect(drift.stdout + drift.stderr).not.toContain('No drift')
      expect(drift.code).not.toBe(0)
    }
  })
})

describe('a team answered by a name two teams share', () => {
  it('plans the change to the declared team', async () => {
    // A second team named Platform, the one dc-lisbon-agent serves.
    const seed = exampleSeedSharingNames({ team: true })
    const em = await emulator({ seed })
    const env = await serviceWithoutIds(em)
    const planned = await cli(em, tempdir({ 'c.yaml': 'agents:\n  - id: 3kLx8Qy7Pb2m\n    teams: [Tm8Kq2Xa9Lp3]\n' }), ['plan'], env)
    expect(planned.code, planned.stderr).toBe(0)
    expect(planned.stdout).toContain('~ agent 3kLx8Qy7Pb2m "dc-lisbon-agent"\n    teams: [Platform] -> ')
  })
})
