// Review round 21 (the edge of nothing): README says "Plans print names (`teams: [Platform] ->
// [Platform, Security]`), ids only where no name is known". A reference the YAML empties printed
// what it leaves by id: `scanning_agent: null` as `{id: "3kLx8Qy7Pb2m"} -> null` (though the live
// target names the agent it holds, its `scanning_agent.name`), `teams: []` as a list of removals
// `- "Tm8Kq2Xa9Lp3"` (no team list was read: the YAML named no team). Both are now shown by name;
// the team list is read for it, as for a team listed by id. The JSON keeps the ids.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

describe('what an emptied reference leaves is shown by name', () => {
  it.each([
    {
      yaml: 'targets:\n  - id: 2DZkoZH8WMEM\n    scanning_agent: null\n',
      text: '~ target 2DZkoZH8WMEM "Shop"\n    scanning_agent: dc-lisbon-agent -> null\n',
      markdown: '| <code>scanning\\_agent</code> | <code>dc-lisbon-agent</code> | <code>null</code> |',
      json: { path: 'scanning_agent', before: { id: '3kLx8Qy7Pb2m' }, after: null },
      id: '3kLx8Qy7Pb2m',
    },
    {
      yaml: 'agents:\n  - id: 3kLx8Qy7Pb2m\n    teams: []\n',
      text: '~ agent 3kLx8Qy7Pb2m "dc-lisbon-agent"\n    teams: [Platform] -> []\n',
      markdown: '| <code>teams</code> | <code>\\[Platform\\]</code> | <code>\\[\\]</code> |',
      json: { path: 'teams', before: ['Tm8Kq2Xa9Lp3'], after: [] },
      id: 'Tm8Kq2Xa9Lp3',
    },
  ])('$json.path emptied: by name in text and markdown, by id in the JSON', async ({ yaml, text, markdown, json, id }) => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': yaml })
    const plain = await cli(em, dir, ['plan'])
    expect(plain.code, plain.stderr).toBe(0)
    expect(plain.stdout).toContain(text)
    expect(plain.stdout).not.toContain(id)
    expect((await cli(em, dir, ['plan', '--format', 'markdown'])).stdout).toContain(markdown)
    expect(JSON.parse((await cli(em, dir, ['plan', '--format', 'json'])).stdout).changes[0].fields[0]).toMatchObject(json)
  })

  it('a move to an agent declared by id in the same run names both agents', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': 'targets:\n  - id: 2DZkoZH8WMEM\n    scanning_agent: 6NbVcX4zLkJh\nagents:\n  - id: 6NbVcX4zLkJh\n' })
    const run = await cli(em, dir, ['plan'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('scanning_agent: dc-lisbon-agent -> dc-porto-agent\n')
    expect(run.stdout).toContain('Plan: 1 to change, 1 unchanged.')
  })

  it('teams emptied, through a saved plan: shown by name when applied, then nothing left to plan; teams: null reads the same', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': 'agents:\n  - id: 3kLx8Qy7Pb2m\n    teams: null\n' })
    const saved = await cli(em, dir, ['plan', '--out', 'release.plan.json'])
    expect(saved.code, saved.stderr).toBe(0)
    expect(saved.stdout).toContain('teams: [Platform] -> []\n')
    const applied = await cli(em, dir, ['apply', '--plan', 'release.plan.json', '--auto-approve'])
    expect(applied.code, applied.stderr).toBe(0)
    expect(applied.stdout).toContain('teams: [Platform] -> []')
    expect(em.get('agent', '3kLx8Qy7Pb2m')).toMatchObject({ teams: [] })
    const after = await cli(em, dir, ['plan', '--detailed-exitcode'])
    expect(after.code, after.stdout).toBe(0)
  })
})
