// Review round 22 (onboarding through import): a service answering a target's scanning agent, or
// an agent's teams, by name alone (no id) where the agent or team of that name is no longer in the
// lists (deleted or renamed since): import wrote `scanning_agent: {name: dc-porto-agent}` (`teams:
// [{name: Security}]`), so the imported files did not plan, apply or drift: 'no agent is named
// "dc-porto-agent"', exit 1, where the contract promises an import that plans clean. Such a
// reference is now left out, with the comment and stderr line a name two of them share gets.
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, exampleSeed, EXAMPLE_SECRETS } from '../e2e/helpers.js'
import { importTargetsAndAgents } from '../e2e/without-ids.js'
import { startProxy } from '../e2e/proxy.js'

beforeAll(ensureBuilt, 120_000)

/** A service whose lists no longer hold dc-porto-agent nor the Security team, answering references without ids. */
const GONE = new Set(['6NbVcX4zLkJh', 'Tm1Zz9Yy8Xx7'])
const strip = (resource: Record<string, unknown>): void => {
  const agent = resource.scanning_agent
  if (agent !== null && typeof agent === 'object') delete (agent as Record<string, unknown>).id
  if (Array.isArray(resource.teams)) for (const team of resource.teams as Array<Record<string, unknown>>) delete team.id
}

describe('import of references answered by a name no agent or team carries', () => {
  it('leaves them out, says why, and the files plan clean, apply nothing and drift clean', async () => {
    const seed = exampleSeed() as { agents: Array<Record<string, unknown>>; targets: Array<Record<string, unknown>> }
    seed.targets.find((t) => t.id === '9XcVbN5mQwEr')!.scanning_agent = { id: '6NbVcX4zLkJh' }
    seed.agents.find((a) => a.id === '2PqRsT6uVwXy')!.teams = [{ id: 'TmQ4Ww7Ee2Rr' }, { id: 'Tm1Zz9Yy8Xx7' }]
    const em = await emulator({ seed })
    const proxy = await startProxy(em.url, async (request, forward) => {
      const answer = await forward()
      if (answer.status !== 200 || !answer.body.startsWith('{')) return answer
      const parsed = JSON.parse(answer.body) as Record<string, unknown>
      if (Array.isArray(parsed.results)) {
        const results = (parsed.results as Array<Record<string, unknown>>).filter((r) => !GONE.has(r.id as string))
        if (typeof parsed.count === 'number') parsed.count -= parsed.results.length - results.length
        parsed.results = results
        for (const resource of results) strip(resource)
      } else strip(parsed)
      return { ...answer, body: JSON.stringify(parsed) }
    })
    const env = { SCANSYNC_API_URL: proxy.url, ...EXAMPLE_SECRETS }
    const { dir, imported, targets, agents } = await importTargetsAndAgents(em, env)
    expect(imported.code, imported.stderr).toBe(0)
    expect(targets).not.toContain('dc-porto-agent')
    expect(agents).not.toContain('Security')
    // Names one agent or team carries are still written by name.
    expect(targets).toContain('scanning_agent: {name: dc-lisbon-agent}')
    expect(agents).toContain('teams: [{name: Platform}]')
    expect(targets).toContain('Left out: scanning_agent (the service answers its scanning agent by a name that no agent carries')
    expect(imported.stderr).toContain('  target 9XcVbN5mQwEr scanning_agent: the service answers its scanning agent by a name that no agent carries')
    expect(imported.stderr).toContain('  agent 2PqRsT6uVwXy teams: the service answers a team by a name that no team carries')
    const writesBefore = em.requests().filter((r) => r.method !== 'GET').length
    for (const command of [['plan', '--detailed-exitcode'], ['apply', '--auto-approve'], ['drift']]) {
      const run = await cli(em, join(dir, 'cfg'), command, env)
      expect(run.code, run.stdout + run.stderr).toBe(0)
      expect(run.stdout).toMatch(/No changes\.|No drift\./)
    }
    expect(em.requests().filter((r) => r.method !== 'GET').length).toBe(writesBefore)
  })
})
