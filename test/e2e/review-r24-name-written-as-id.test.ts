// Review round 24 (scanning agents, their teams, and references by name): a bare value is an id
// (`scanning_agent: dc-lisbon-agent` is `{id: dc-lisbon-agent}`), so writing an agent's or a team's
// name there, the commonest slip, was told only `no team has the id "Marketing"` followed by the
// first ten ids of the account (`and 5 more`): nothing said that "Marketing" is a team's name, nor
// how to write it. Now the message says whose name it is and to write `{name: …}`; the other way
// round, a `{name: …}` holding an id says whose id it is.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, exampleSeed, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

describe('a name written where an id goes, and an id where a name goes', () => {
  it('is said so at its line, in an account with more teams than are listed; nothing is sent', async () => {
    const seed = exampleSeed()
    for (let i = 0; i < 12; i++) seed.teams!.push({ id: `TmExtra${String(i).padStart(5, 'A')}`, name: `Extra team ${i}` })
    const em = await emulator({ seed })
    const dir = tempdir({
      'c.yaml': [
        'targets:',
        '  - id: 7QwErTy2UiOp',
        '    scanning_agent: dc-porto-agent',
        '  - id: 5HnBvC3xZaQw',
        '    scanning_agent: {name: 6NbVcX4zLkJh}',
        'agents:',
        '  - id: 6NbVcX4zLkJh',
        '    teams: [Marketing]',
        '',
      ].join('\n'),
    })
    em.clearRequests()
    const run = await cli(em, dir, ['apply', '--auto-approve'])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('c.yaml:3:21: target 7QwErTy2UiOp: scanning_agent: no agent has the id "dc-porto-agent"; it is the name of agent 6NbVcX4zLkJh: a bare value is an id, write {name: "dc-porto-agent"} or the id')
    expect(run.stderr).toContain('c.yaml:5:28: target 5HnBvC3xZaQw: scanning_agent.name: no agent is named "6NbVcX4zLkJh"; it is the id of agent "dc-porto-agent": write the id without name:, as {id: "6NbVcX4zLkJh"}')
    expect(run.stderr).toContain('c.yaml:8:13: agent 6NbVcX4zLkJh: teams[0]: no team has the id "Marketing"; it is the name of team TmQ4Ww7Ee2Rr: a bare value is an id, write {name: "Marketing"} or the id')
    expect(em.requests().filter((r) => r.method !== 'GET')).toEqual([])
  })
})
