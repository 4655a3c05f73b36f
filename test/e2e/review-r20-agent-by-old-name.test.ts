// An agent declared by its name (no id) that the configuration also renames by its id: the
// by-name declaration is that live agent, declared twice. Plan said "no live agent has this name;
// did you mean "dc-porto-agent"?", though the service has an agent of that name: the one the
// other declaration renames. Found by a generated-declarations run (plan, apply, plan empty).
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const CONFIG = `agents:
  - name: dc-lisbon-agent
    teams: []
  - id: 3kLx8Qy7Pb2m
    name: dc-lisbon-agent-2
`

describe('an agent declared by its live name and renamed by its id elsewhere', () => {
  it('is reported as one live agent declared twice, at both lines, not as an unknown name', async () => {
    const em = await emulator()
    const dir = tempdir({ 'agents.yaml': CONFIG })
    const planned = await cli(em, dir, ['plan', '.'])
    expect(planned.code).toBe(1)
    expect(planned.stderr).not.toContain('no live agent has this name')
    expect(planned.stderr).not.toContain('did you mean')
    expect(planned.stderr).toContain('agents.yaml:2:11: agent "dc-lisbon-agent" is the live agent 3kLx8Qy7Pb2m, also declared at agents.yaml:4')
    expect(planned.stderr).toContain('agents.yaml:4:9: agent 3kLx8Qy7Pb2m is the live agent 3kLx8Qy7Pb2m, also declared at agents.yaml:2 (by its name)')
    expect(em.requests().filter((r) => r.method !== 'GET')).toEqual([])
  })

  it('an agent named so after the apply by the rename is still found by that new name', async () => {
    const em = await emulator()
    const dir = tempdir({ 'agents.yaml': `agents:\n  - name: dc-porto-agent\n    teams: []\n  - id: 3kLx8Qy7Pb2m\n    name: dc-lisbon-agent-2\n` })
    const planned = await cli(em, dir, ['plan', '.'])
    expect(planned.code, planned.stderr).toBe(0)
    expect(planned.stdout).toContain('~ agent 3kLx8Qy7Pb2m "dc-lisbon-agent-2"')
  })
})
