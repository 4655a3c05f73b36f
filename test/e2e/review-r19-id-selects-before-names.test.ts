// `--id` narrows a run to those resources: a name that an unselected resource declared by id
// refers to (a team not made yet, an agent not installed yet) is no business of the run, as it is
// none of `--kind`'s. With a resource declared by its natural key in the configuration, `--id`
// resolved every declared resource's names first, so `apply --id ASSET` was refused for a
// target's agent name that `apply --kind asset` never looked at. The real CLI against the emulator.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const CONFIG = `agents:
  - name: cloud-fallback-agent
  - id: 3kLx8Qy7Pb2m
    teams: [{name: Compliance}]
targets:
  - id: 7QwErTy2UiOp
    scanning_agent: {name: dc-madrid-agent}
assets:
  - id: 6WsXdC2rFvTg
    comment: Public status page
`

describe('--id with a resource declared by its natural key', () => {
  it('plan, drift and apply of one asset do not resolve the names unselected resources declared by id refer to', async () => {
    const em = await emulator()
    const dir = tempdir({ 'config.yaml': CONFIG })

    const byKind = await cli(em, dir, ['plan', '.', '--kind', 'asset'])
    expect(byKind.code, byKind.stderr).toBe(0)
    const planned = await cli(em, dir, ['plan', '.', '--id', '6WsXdC2rFvTg'])
    expect(planned.stderr).not.toContain('dc-madrid-agent')
    expect(planned.code, planned.stderr).toBe(0)
    expect(planned.stdout).toBe(byKind.stdout)
    expect(planned.stdout).toContain('~ asset 6WsXdC2rFvTg "status.example.com"\n    comment: "" -> "Public status page"')
    expect(planned.stdout).toContain('Plan: 1 to change, 0 unchanged.')

    const drifted = await cli(em, dir, ['drift', '.', '--id', '6WsXdC2rFvTg'])
    expect(drifted.code, drifted.stderr).toBe(2)
    expect(drifted.stdout).toContain('asset 6WsXdC2rFvTg')

    const applied = await cli(em, dir, ['apply', '.', '--id', '6WsXdC2rFvTg', '--auto-approve'])
    expect(applied.code, applied.stderr).toBe(0)
    expect(em.requests().filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual(['PUT /discovery/assets/6WsXdC2rFvTg/'])
  })

  it('still selects a resource found by its natural key, and still refuses a selected resource whose name is unknown', async () => {
    const em = await emulator()
    const dir = tempdir({ 'config.yaml': CONFIG })
    const agent = await cli(em, dir, ['plan', '.', '--id', '2PqRsT6uVwXy'])
    expect(agent.code, agent.stderr).toBe(0)
    expect(agent.stdout).toContain('No changes. Plan: 0 to change, 1 unchanged.')

    const target = await cli(em, dir, ['plan', '.', '--id', '7QwErTy2UiOp'])
    expect(target.code).toBe(1)
    expect(target.stderr).toContain('config.yaml:7:28: target 7QwErTy2UiOp: scanning_agent.name: no agent is named "dc-madrid-agent"')
    expect(target.stderr).not.toContain('Compliance')

    const unknown = await cli(em, dir, ['plan', '.', '--id', 'NoSuchId0000'])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('--id NoSuchId0000: no such resource is declared')
    expect(em.requests().filter((r) => r.method !== 'GET')).toEqual([])
  })
})
