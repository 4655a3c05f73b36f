// Review round 22 (attacks on the round's references, secrets and schema changes): import from a
// service that answers a target's scanning agent, or an agent's teams, by name alone wrote that
// name (`scanning_agent: {name: dc-lisbon-agent}`, `teams: [{name: Platform}]`) even where two
// agents or teams share it, so the imported files did not plan: "2 agents are named
// "dc-lisbon-agent" … refer to the one you mean by its id", exit 1, where the contract promises an
// import that plans clean. Such a reference is now left out, with the comment and the line on
// stderr every value a configuration cannot declare gets.
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator } from '../e2e/helpers.js'
import { exampleSeedSharingNames, importTargetsAndAgents, serviceWithoutIds } from '../e2e/without-ids.js'

beforeAll(ensureBuilt, 120_000)

describe('import of references answered by a name two agents or teams share', () => {
  it('leaves them out, says why, and the files plan clean', async () => {
    const seed = exampleSeedSharingNames({ agent: true, team: true })
    const em = await emulator({ seed })
    const env = await serviceWithoutIds(em)
    const { dir, imported, targets, agents } = await importTargetsAndAgents(em, env)
    expect(imported.code, imported.stderr).toBe(0)
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
