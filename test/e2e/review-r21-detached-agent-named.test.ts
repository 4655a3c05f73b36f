// Review round 21 (the edge of nothing): README says "Plans print names (`teams: [Platform] ->
// [Platform, Security]`), ids only where no name is known". A target whose YAML detaches its agent
// (`scanning_agent: null`) printed `scanning_agent: {id: "3kLx8Qy7Pb2m"} -> null`, and one moved to
// an agent the same run declares by id printed `{id: "3kLx8Qy7Pb2m"} -> dc-porto-agent`, though the
// live target names the agent it holds (its `scanning_agent.name`). That name is now shown.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

describe('the agent a target leaves is shown by its name', () => {
  it('scanning_agent: null prints the live agent by name, in text and markdown (the JSON keeps the id)', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': 'targets:\n  - id: 2DZkoZH8WMEM\n    scanning_agent: null\n' })
    const text = await cli(em, dir, ['plan'])
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout).toContain('~ target 2DZkoZH8WMEM "Shop"\n    scanning_agent: dc-lisbon-agent -> null\n')
    expect(text.stdout).not.toContain('3kLx8Qy7Pb2m')
    const markdown = await cli(em, dir, ['plan', '--format', 'markdown'])
    expect(markdown.stdout).toContain('| <code>scanning\\_agent</code> | <code>dc-lisbon-agent</code> | <code>null</code> |')
    const json = await cli(em, dir, ['plan', '--format', 'json'])
    expect(JSON.parse(json.stdout).changes[0].fields[0]).toMatchObject({ path: 'scanning_agent', before: { id: '3kLx8Qy7Pb2m' }, after: null })
  })

  it('a move to an agent declared by id in the same run names both agents', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': 'targets:\n  - id: 2DZkoZH8WMEM\n    scanning_agent: 6NbVcX4zLkJh\nagents:\n  - id: 6NbVcX4zLkJh\n' })
    const run = await cli(em, dir, ['plan'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('scanning_agent: dc-lisbon-agent -> dc-porto-agent\n')
    expect(run.stdout).toContain('Plan: 1 to change, 1 unchanged.')
  })
})
