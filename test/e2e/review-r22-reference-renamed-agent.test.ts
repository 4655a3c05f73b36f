// Review round 22 (attacks on the round's references, secrets and schema changes): against a
// service that answers a target's scanning agent by name alone, an apply that points a target at
// an agent and renames that agent in the same run reported the target 'failed: the service
// answered 200 but did not apply scanning_agent' (exit 1), though the service took it: the answer
// named the agent by the name it had when the write landed, which the check knew only one of (a
// saved plan's names hold the new name, the target's write landed before the rename; a plan just
// made holds the old one, the rename landed first). Both names are now that agent's.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, EXAMPLE_SECRETS, tempdir } from './helpers.js'
import { startProxy, type ProxyResponse } from './proxy.js'
import type { Emulator } from '../../src/emulator/index.js'

beforeAll(ensureBuilt, 120_000)

const withoutIds = (resource: Record<string, unknown>): void => {
  const agent = resource.scanning_agent
  if (agent !== null && typeof agent === 'object') delete (agent as Record<string, unknown>).id
  if (Array.isArray(resource.teams)) for (const team of resource.teams as Array<Record<string, unknown>>) delete team.id
}

/**
 * The emulator behind a service that answers the embedded agent and the agents' teams without
 * ids; with `agentFirst`, a target's write is passed on once an agent's write has been answered.
 */
async function serviceWithoutIds(em: Emulator, agentFirst = false): Promise<Record<string, string>> {
  let agentWritten!: () => void
  const agentDone = new Promise<void>((resolve) => (agentWritten = resolve))
  const proxy = await startProxy(em.url, async (request, forward) => {
    if (agentFirst && request.method !== 'GET' && request.path.startsWith('/targets/')) await agentDone
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

const config = 'targets:\n  - id: 2DZkoZH8WMEM\n    scanning_agent: 6NbVcX4zLkJh\nagents:\n  - id: 6NbVcX4zLkJh\n    name: porto-renamed\n'

describe('an apply that points a target at an agent it renames', () => {
  it('applied from a saved plan: reports both applied, then plans nothing', async () => {
    const em = await emulator()
    const env = await serviceWithoutIds(em)
    const dir = tempdir({ 'c.yaml': config })
    const saved = await cli(em, dir, ['plan', '--out', 'p.json'], env)
    expect(saved.code, saved.stderr).toBe(0)
    expect(saved.stdout).toContain('scanning_agent: dc-lisbon-agent -> porto-renamed')
    const applied = await cli(em, dir, ['apply', '--plan', 'p.json', '--auto-approve'], env)
    expect(applied.stdout + applied.stderr).not.toContain('did not apply')
    expect(applied.code, applied.stdout + applied.stderr).toBe(0)
    expect(applied.stdout).toContain('Apply: 2 applied, 0 failed')
    const planned = await cli(em, dir, ['plan'], env)
    expect(planned.stdout).toContain('No changes.')
  })

  it('the rename landing first: reports both applied, then plans nothing', async () => {
    const em = await emulator()
    const env = await serviceWithoutIds(em, true)
    const dir = tempdir({ 'c.yaml': config })
    const applied = await cli(em, dir, ['apply', '--auto-approve'], env)
    expect(applied.stdout + applied.stderr).not.toContain('did not apply')
    expect(applied.code, applied.stdout + applied.stderr).toBe(0)
    expect(applied.stdout).toContain('Apply: 2 applied, 0 failed')
    const planned = await cli(em, dir, ['plan'], env)
    expect(planned.stdout).toContain('No changes.')
  })
})
