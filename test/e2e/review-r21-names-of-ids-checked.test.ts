// Review round 21 (the documentation, run exactly as written): README's quick start plans
// examples/config, whose dc-lisbon-agent gains team Tm1Zz9Yy8Xx7 (Security), and says "Plans print
// names (`teams: [Platform] -> [Platform, Security]`), ids only where no name is known". The plan
// read GET /teams/ (to check the id exists) and still printed `+ "Tm1Zz9Yy8Xx7"`; a target
// referring to an undeclared agent by id likewise printed `{id: "6NbVcX4zLkJh"}` although the
// agent list was read for the same check. The names of a list read for that check are now shown.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, exampleConfig, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

describe('ids referred to, named in the plan when the run read their list', () => {
  it('the quick start: the team added to dc-lisbon-agent is shown by its name, in plan and in a saved plan applied', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    const run = await cli(em, dir, ['plan', '.'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('~ agent 3kLx8Qy7Pb2m "dc-lisbon-agent"\n    teams: [Platform] -> [Security, Platform]\n')
    expect(run.stdout).not.toContain('Tm1Zz9Yy8Xx7')
    const saved = await cli(em, dir, ['plan', '.', '--out', 'release.plan.json', '--kind', 'agent'])
    expect(saved.code, saved.stderr).toBe(0)
    const applied = await cli(em, dir, ['apply', '--plan', 'release.plan.json', '--auto-approve'])
    expect(applied.code, applied.stderr).toBe(0)
    expect(applied.stdout).toContain('teams: [Platform] -> [Security, Platform]')
  })

  it('a scanning agent referred to by the id of an agent no file declares is shown by its name', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': 'targets:\n  - id: 7QwErTy2UiOp\n    scanning_agent: 6NbVcX4zLkJh\n' })
    const run = await cli(em, dir, ['plan'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('scanning_agent: null -> dc-porto-agent\n')
    // The plan's JSON keeps the id.
    const json = await cli(em, dir, ['plan', '--format', 'json'])
    expect(JSON.parse(json.stdout).changes[0].fields[0]).toMatchObject({ path: 'scanning_agent', after: { id: '6NbVcX4zLkJh' } })
  })

  it('a team name holding a secret of the run stays (sensitive)', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': 'agents:\n  - id: 6NbVcX4zLkJh\n    teams: [Tm1Zz9Yy8Xx7]\n    name: "${AGENT_NAME}"\n' })
    const run = await cli(em, dir, ['plan'], { AGENT_NAME: 'Security' })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('teams: [] -> [(sensitive)]')
    expect(run.stdout).not.toContain('Security')
  })
})
