// Review round 21 (the edge of nothing): README says "Plans print names (`teams: [Platform] ->
// [Platform, Security]`), ids only where no name is known". An agent whose YAML empties its teams
// (`teams: []`) printed the teams it leaves by id, as a list of removals (`teams:\n - "Tm8Kq2Xa9Lp3"`),
// where `teams: [] -> [Security]` reads by name: no team list was read, since the YAML named no
// team. The team list is now read (as for a team listed by id) and the plan says
// `teams: [Platform] -> []`.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

describe('the teams an agent leaves are shown by name', () => {
  it('teams: [] prints the live teams by name, in text, markdown and an applied saved plan (the JSON keeps the ids)', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': 'agents:\n  - id: 3kLx8Qy7Pb2m\n    teams: []\n' })
    const text = await cli(em, dir, ['plan'])
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout).toContain('~ agent 3kLx8Qy7Pb2m "dc-lisbon-agent"\n    teams: [Platform] -> []\n')
    expect(text.stdout).not.toContain('Tm8Kq2Xa9Lp3')
    const markdown = await cli(em, dir, ['plan', '--format', 'markdown'])
    expect(markdown.stdout).toContain('| <code>teams</code> | <code>\\[Platform\\]</code> | <code>\\[\\]</code> |')
    const json = await cli(em, dir, ['plan', '--format', 'json'])
    expect(JSON.parse(json.stdout).changes[0].fields[0]).toMatchObject({ path: 'teams', before: ['Tm8Kq2Xa9Lp3'], after: [] })

    const saved = await cli(em, dir, ['plan', '--out', 'release.plan.json'])
    expect(saved.code, saved.stderr).toBe(0)
    const applied = await cli(em, dir, ['apply', '--plan', 'release.plan.json', '--auto-approve'])
    expect(applied.code, applied.stderr).toBe(0)
    expect(applied.stdout).toContain('teams: [Platform] -> []')
    expect(em.get('agent', '3kLx8Qy7Pb2m')).toMatchObject({ teams: [] })
    const after = await cli(em, dir, ['plan', '--detailed-exitcode'])
    expect(after.code, after.stdout).toBe(0)
  })

  it('teams: null reads the same', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': 'agents:\n  - id: 3kLx8Qy7Pb2m\n    teams: null\n' })
    const run = await cli(em, dir, ['plan'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('teams: [Platform] -> []\n')
    expect(run.stdout).not.toContain('Tm8Kq2Xa9Lp3')
  })
})
