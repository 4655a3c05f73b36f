// Review round 22 (attacks on the round's references, secrets and schema changes): import from a
// service that answers a target's scanning agent, or an agent's teams, by name alone wrote that
// name (`scanning_agent: {name: dc-lisbon-agent}`, `teams: [{name: Platform}]`) even where two
// agents or teams share it, so the imported files did not plan: "2 agents are named
// "dc-lisbon-agent" … refer to the one you mean by its id", exit 1, where the contract promises an
// import that plans clean. Such a reference is now left out, with the comment and the line on
// stderr every value a configuration cannot declare gets.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, exampleSeed, EXAMPLE_SECRETS, tempdir } from '../e2e/helpers.js'
import { startProxy } from '../e2e/proxy.js'
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

describe('import of references answered by a name two agents or teams share', () => {
  it('leaves them out, says why, and the files plan clean', async () => {
    const seed = exampleSeed() as Seed
    seed.agents.push({ ...seed.agents[0], id: '9ZzDupAgent01', teams: [] })
    seed.targets[0]!.scanning_agent = { id: '9ZzDupAgent01' }
    seed.teams.push({ id: 'TmDupPlatfrm', name: 'Platform' })
    seed.agents[0]!.teams = [{ id: 'TmDupPlatfrm' }]
    const em = await emulator({ seed })
    const env = await serviceWithoutIds(em)
    const dir = tempdir()
    const imported = await cli(em, dir, ['import', '--kind', 'target,agent', '--all', '--out', 'cfg'], env)
    expect(imported.code, imported.stderr).toBe(0)
    const targets = readFileSync(join(dir, 'cfg', 'targets.yaml'), 'utf8')
    const agents = readFileSync(join(dir, 'cfg', 'agents.yaml'), 'utf8')
    expect(targets).not.toContain('scanning_agent: {name: dc-lisbon-agent}')
    // Names shared by nobody are still written by name.
    expect(targets).toContain('scanning_agent: {name: cloud-fallback-agent}')
    expect(agents).toContain('teams: [{name: Marketing}]')
    expect(agents).not.toContain('{name: Platform}')
    expect(targets).toContain('Left out: scanning_agent (the service answers its scanning agent by a name that two agents share')
    expect(imported.stderr).toContain('  target 2DZkoZH8WMEM scanning_agent: the service answers its scanning agent by a name that two agents share')
    expect(imported.stderr).toContain('  agent 3kLx8Qy7Pb2m teams: the service answers a team by a name that two teams share')
    const planned = await cli(em, join(dir, 'cfg'), ['plan', '--detailed-exitcode'], env)
    expect(planned.code, planned.stdout + planned.stderr).toBe(0)
    expect(planned.stdout).toContain('No changes.')
  })
})
