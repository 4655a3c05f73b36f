// A service that answers references without ids, shared by the tests of round 22 that need one: the
// interface document makes the id of the agent embedded in a target optional ("`id` optional
// string, `name` req") and that of an agent's teams too, so the service may answer them by name
// alone. The emulator always gives the ids; a proxy in front of it takes them out.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { cli, exampleSeed, EXAMPLE_SECRETS, tempdir } from './helpers.js'
import { startProxy, type ProxyResponse } from './proxy.js'
import type { Emulator, EmulatorSeed } from '../../src/emulator/index.js'

/** Takes the id out of a target's embedded scanning agent and of an agent's teams. */
const withoutIds = (resource: Record<string, unknown>): void => {
  const agent = resource.scanning_agent
  if (agent !== null && typeof agent === 'object') delete (agent as Record<string, unknown>).id
  if (Array.isArray(resource.teams)) for (const team of resource.teams as Array<Record<string, unknown>>) delete team.id
}

/**
 * The emulator behind a service that answers the embedded agent and the agents' teams without
 * ids; with `targetWriteAfterAgentWrite`, a target's write is passed on once an agent's write has
 * been answered. Returns the environment of a run against it (with the example's secrets).
 */
export async function serviceWithoutIds(em: Emulator, options: { targetWriteAfterAgentWrite?: boolean } = {}): Promise<Record<string, string>> {
  let agentWritten!: () => void
  const agentDone = new Promise<void>((resolve) => (agentWritten = resolve))
  const proxy = await startProxy(em.url, async (request, forward) => {
    if (options.targetWriteAfterAgentWrite && request.method !== 'GET' && request.path.startsWith('/targets/')) await agentDone
    const answer: ProxyResponse = await forward()
    if (request.method !== 'GET' && request.path.startsWith('/scanning-agents/')) agentWritten()
    if (answer.status !== 200 || !answer.body.startsWith('{')) return answer
    const parsed = JSON.parse(answer.body) as Record<string, unknown>
    if (Array.isArray(parsed.results)) for (const resource of parsed.results) withoutIds(resource as Record<string, unknown>)
    else withoutIds(parsed)
    return { ...answer, body: JSON.stringify(parsed) }
  })
  return { SCANSYNC_API_URL: proxy.url, ...EXAMPLE_SECRETS }
}

export type ExampleSeed = EmulatorSeed & { agents: Array<Record<string, unknown>>; teams: Array<Record<string, unknown>>; targets: Array<Record<string, unknown>> }

/**
 * The example seed where names are shared, so that a reference answered by name alone is
 * ambiguous: with `agent`, a second agent named as dc-lisbon-agent (3kLx8Qy7Pb2m) is the one the
 * first target scans from; with `team`, a second team named Platform is the one dc-lisbon-agent
 * serves.
 */
export function exampleSeedSharingNames(shared: { agent?: boolean; team?: boolean }): ExampleSeed {
  const seed = exampleSeed() as ExampleSeed
  if (shared.agent) {
    seed.agents.push({ ...seed.agents[0], id: '9ZzDupAgent01', teams: [] })
    seed.targets[0]!.scanning_agent = { id: '9ZzDupAgent01' }
  }
  if (shared.team) {
    seed.teams.push({ id: 'TmDupPlatfrm', name: 'Platform' })
    seed.agents[0]!.teams = [{ id: 'TmDupPlatfrm' }]
  }
  return seed
}

/** `import --kind target,agent --all --out cfg` in a new folder, and the two files it wrote. */
export async function importTargetsAndAgents(em: Emulator, env: Record<string, string | undefined>) {
  const dir = tempdir()
  const imported = await cli(em, dir, ['import', '--kind', 'target,agent', '--all', '--out', 'cfg'], env)
  const read = (name: string) => readFileSync(join(dir, 'cfg', name), 'utf8')
  return { dir, imported, targets: imported.code === 0 ? read('targets.yaml') : '', agents: imported.code === 0 ? read('agents.yaml') : '' }
}
