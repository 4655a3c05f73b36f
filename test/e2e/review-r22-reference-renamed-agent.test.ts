// Review round 22 (attacks on the round's references, secrets and schema changes): against a
// service that answers a target's scanning agent by name alone, an apply that points a target at
// an agent and renames that agent in the same run reported the target 'failed: the service
// answered 200 but did not apply scanning_agent' (exit 1), though the service took it: the answer
// named the agent by the name it had when the write landed, which the check knew only one of (a
// saved plan's names hold the new name, the target's write landed before the rename; a plan just
// made holds the old one, the rename landed first). Both names are now that agent's.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'
import { serviceWithoutIds } from './without-ids.js'

beforeAll(ensureBuilt, 120_000)

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
    const env = await serviceWithoutIds(em, { targetWriteAfterAgentWrite: true })
    const dir = tempdir({ 'c.yaml': config })
    const applied = await cli(em, dir, ['apply', '--auto-approve'], env)
    expect(applied.stdout + applied.stderr).not.toContain('did not apply')
    expect(applied.code, applied.stdout + applied.stderr).toBe(0)
    expect(applied.stdout).toContain('Apply: 2 applied, 0 failed')
    const planned = await cli(em, dir, ['plan'], env)
    expect(planned.stdout).toContain('No changes.')
  })
})
