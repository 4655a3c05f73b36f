// A plan shows a target's agent by its name. Two agents whose names differ only by a space at the
// end (`dc-lisbon-agent` and `dc-lisbon-agent `, as a rename in the web interface leaves it) read
// the same: `scanning_agent: dc-lisbon-agent -> dc-lisbon-agent `, a change that looked like none.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, exampleSeed, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

describe('an agent named with a space at its end, in a plan', () => {
  it('shows that name in quotes, in text, markdown and github', { timeout: 60_000 }, async () => {
    const seed = exampleSeed()
    seed.agents!.find((agent) => agent.id === '6NbVcX4zLkJh')!.name = 'dc-lisbon-agent '
    const em = await emulator({ seed })
    // The target uses dc-lisbon-agent (3kLx8Qy7Pb2m) and moves to the other.
    const dir = tempdir({ 't.yaml': 'targets:\n  - id: 2DZkoZH8WMEM\n    scanning_agent: {id: 6NbVcX4zLkJh}\n' })
    const text = await cli(em, dir, ['plan'])
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout).toContain('    scanning_agent: dc-lisbon-agent -> "dc-lisbon-agent "\n')
    const markdown = await cli(em, dir, ['plan', '--format', 'markdown'])
    expect(markdown.stdout).toContain('| <code>scanning\\_agent</code> | <code>dc-lisbon-agent</code> | <code>"dc-lisbon-agent "</code> |')
    const github = await cli(em, dir, ['plan', '--format', 'github'])
    expect(github.stdout).toContain('::scanning_agent: dc-lisbon-agent -> "dc-lisbon-agent "\n')
    // What is sent is the id, as before.
    const json = await cli(em, dir, ['plan', '--format', 'json'])
    expect(JSON.parse(json.stdout).changes[0].fields[0].after).toEqual({ id: '6NbVcX4zLkJh' })
  })
})
