// Review round 22 (a service answer without ids never settles): the interface document makes the
// id of the agent embedded in a target optional ("`id` optional string, `name` req") and that of an
// agent's teams too ("elements `{id: string, name: string req}`"). A service answering them by name
// alone got a plan that never emptied (`scanning_agent: {id: {name: "dc-lisbon-agent", …}} ->
// dc-lisbon-agent`, the same PATCH sent by every apply), agents refused as "an unexpected shape",
// and an import that dropped the references without a word. Such a reference is now compared by
// the name the run's reads give the declared id, shown by its name, and imported by name.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, exampleConfig, tempdir } from './helpers.js'
import { serviceWithoutIds } from './without-ids.js'
import type { Emulator } from '../../src/emulator/index.js'

beforeAll(ensureBuilt, 120_000)

const writes = (em: Emulator) => em.requests().filter((r) => r.method !== 'GET')

/** A plan of each configuration (one resource, its reference written each way) against the service without ids: no changes. */
async function plansNothing(em: Emulator, env: Record<string, string>, configurations: string[]): Promise<void> {
  for (const yaml of configurations) {
    const run = await cli(em, tempdir({ 'c.yaml': yaml }), ['plan'], env)
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('No changes.')
  }
}

describe('a target whose scanning agent the service answers without id', () => {
  it('plans nothing when declared by its name or by its id, and shows a change by names', async () => {
    const em = await emulator()
    const env = await serviceWithoutIds(em)
    await plansNothing(em, env, ['{name: dc-lisbon-agent}', '3kLx8Qy7Pb2m'].map((agent) => `targets:\n  - id: 2DZkoZH8WMEM\n    scanning_agent: ${agent}\n`))
    const other = await cli(em, tempdir({ 'c.yaml': 'targets:\n  - id: 2DZkoZH8WMEM\n    scanning_agent: 6NbVcX4zLkJh\n' }), ['plan'], env)
    expect(other.stdout).toContain('    scanning_agent: dc-lisbon-agent -> dc-porto-agent\n')
    const none = await cli(em, tempdir({ 'c.yaml': 'targets:\n  - id: 2DZkoZH8WMEM\n    scanning_agent: null\n' }), ['plan', '--format', 'json'], env)
    const change = (JSON.parse(none.stdout) as { changes: Array<{ fields: Array<{ path: string; before: unknown; after: unknown }> }> }).changes[0]!.fields[0]!
    expect(change).toMatchObject({ path: 'scanning_agent', before: { name: 'dc-lisbon-agent' }, after: null })
  })
})

describe("an agent whose teams the service answers without ids", () => {
  it('plans nothing when its teams are declared by name or by id, and shows a change by names', async () => {
    const em = await emulator()
    const env = await serviceWithoutIds(em)
    await plansNothing(em, env, ['[{name: Platform}]', '[Tm8Kq2Xa9Lp3]'].map((teams) => `agents:\n  - id: 3kLx8Qy7Pb2m\n    teams: ${teams}\n`))
    const other = await cli(em, tempdir({ 'c.yaml': 'agents:\n  - id: 3kLx8Qy7Pb2m\n    teams: [{name: Security}]\n' }), ['plan'], env)
    expect(other.code, other.stderr).toBe(0)
    expect(other.stdout).toContain('    teams: [Platform] -> [Security]\n')
  })
})

describe('the example configuration against such a service', () => {
  it('applies once, then plans and drifts nothing, and applies nothing more', async () => {
    const em = await emulator()
    const env = await serviceWithoutIds(em)
    const dir = exampleConfig()
    const applied = await cli(em, dir, ['apply', '--auto-approve'], env)
    expect(applied.code, applied.stdout + applied.stderr).toBe(0)
    const sent = writes(em).length
    expect(writes(em).some((r) => r.path === '/targets/2DZkoZH8WMEM/' && 'scanning_agent' in (r.body as object))).toBe(false)
    const planned = await cli(em, dir, ['plan'], env)
    expect(planned.stdout).toContain('No changes.')
    const drift = await cli(em, dir, ['drift'], env)
    expect(drift.code, drift.stdout + drift.stderr).toBe(0)
    const again = await cli(em, dir, ['apply', '--auto-approve'], env)
    expect(again.code, again.stderr).toBe(0)
    expect(writes(em).length).toBe(sent)
  })

  it('a saved plan that switches the agent and its teams applies, then plans nothing', async () => {
    const em = await emulator()
    const env = await serviceWithoutIds(em)
    const dir = tempdir({ 'c.yaml': 'targets:\n  - id: 2DZkoZH8WMEM\n    scanning_agent: {name: dc-porto-agent}\nagents:\n  - id: 3kLx8Qy7Pb2m\n    teams: [{name: Security}]\n' })
    const saved = await cli(em, dir, ['plan', '--out', 'p.json'], env)
    expect(saved.code, saved.stderr).toBe(0)
    const applied = await cli(em, dir, ['apply', '--plan', 'p.json', '--auto-approve'], env)
    expect(applied.code, applied.stdout + applied.stderr).toBe(0)
    expect(applied.stdout).not.toContain('did not apply')
    const planned = await cli(em, dir, ['plan'], env)
    expect(planned.stdout).toContain('No changes.')
  })
})

describe('import from such a service', () => {
  it('writes the references by name, and the import plans nothing', async () => {
    const em = await emulator()
    const env = await serviceWithoutIds(em)
    const dir = tempdir()
    const imported = await cli(em, dir, ['import', '--kind', 'target,agent', '--all', '--out', 'cfg'], env)
    expect(imported.code, imported.stderr).toBe(0)
    expect(readFileSync(join(dir, 'cfg', 'targets.yaml'), 'utf8')).toContain('    scanning_agent: {name: dc-lisbon-agent}\n')
    expect(readFileSync(join(dir, 'cfg', 'agents.yaml'), 'utf8')).toContain('    teams: [{name: Platform}]\n')
    const planned = await cli(em, join(dir, 'cfg'), ['plan'], env)
    expect(planned.code, planned.stderr).toBe(0)
    expect(planned.stdout).toContain('No changes.')
  })
})
