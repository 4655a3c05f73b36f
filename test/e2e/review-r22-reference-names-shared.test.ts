// Review round 22 (attacks on the round's references, secrets and schema changes): a service that
// answers a target's scanning agent, or an agent's teams, by name alone (no id) got an empty plan
// whenever the declared agent or team carried that name, even when another agent or team the
// service holds carries it too and is the one referred to: plan and drift said "No changes." while
// the target scanned from another agent (or the agent served another team). A name two of them
// share settles nothing now: the plan shows the change.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, exampleSeed, EXAMPLE_SECRETS, tempdir } from './helpers.js'
import { startProxy } from './proxy.js'
import type { Emulator, EmulatorSeed } from '../../src/emulator/index.js'

beforeAll(ensureBuilt, 120_000)

const withoutIds = (resource: Record<string, unknown>): void => {
  const agent = resource.scanning_agent
  if (agent !== null && typeof agent === 'object') delete (agent as Record<string, unknown>).id
  if (Array.isArray(resource.teams)) for (const team of resource.teams as Array<Record<string, unknown>>) delete team.id
}

/** The emulator behind a service that answers the embedded agent and the agents' teams without ids. */
async function serviceWithoutIds(em: Emulator): Promise<Record<string, string>> {
  const proxy = await startProxy(em.url, async (_request, forward) => {
    const answer = await forward()
    if (answer.status !== 200 || !answer.body.startsWith('{')) return answer
    const parsed = JSON.parse(answer.body) as Record<string, unknown>
    if (Array.isArray(parsed.results)) for (const resource of parsed.results) withoutIds(resource as Record<string, unknown>)
    else withoutIds(parsed)
    return { ...answer, body: JSON.stringify(parsed) }
  })
  return { SCANSYNC_API_URL: proxy.url, ...EXAMPLE_SECRETS }
}

type Seed = EmulatorSeed & { agents: Array<Record<string, unknown>>; teams: Array<Record<string, unknown>>; targets: Array<Record<string, unknown>> }

describe('a reference answered by a name two agents share', () => {
  it('plans the change to the declared agent, whether or not the agent is declared', async () => {
    const seed = exampleSeed() as Seed
    // A second agent named as dc-lisbon-agent (3kLx8Qy7Pb2m), the one the target scans from.
    seed.agents.push({ ...seed.agents[0], id: '9ZzDupAgent01', teams: [] })
    seed.targets[0]!.scanning_agent = { id: '9ZzDupAgent01' }
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
    const seed = exampleSeed() as Seed
    seed.teams.push({ id: 'TmDupPlatfrm', name: 'Platform' })
    seed.agents[0]!.teams = [{ id: 'TmDupPlatfrm' }]
    const em = await emulator({ seed })
    const env = await serviceWithoutIds(em)
    const planned = await cli(em, tempdir({ 'c.yaml': 'agents:\n  - id: 3kLx8Qy7Pb2m\n    teams: [Tm8Kq2Xa9Lp3]\n' }), ['plan'], env)
    expect(planned.code, planned.stderr).toBe(0)
    expect(planned.stdout).toContain('~ agent 3kLx8Qy7Pb2m "dc-lisbon-agent"\n    teams: [Platform] -> ')
  })
})
