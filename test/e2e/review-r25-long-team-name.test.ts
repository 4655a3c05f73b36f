// Review round 25 (every constraint of the service's interface document is in the schemas): an
// agent's team named in YAML (`teams: [{name: …}]`) was held to 255 characters, the limit the
// interface document gives a scanning agent's name, though it gives a team's name none: a team the
// service holds with a longer name could not be named ("teams[0].name must be at most 255
// characters"), by validate, plan or apply. A team's name now has no maximum (an agent's keeps 255).
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { exampleSeed } from '../helpers/emulator.js'
import { runCli } from '../helpers/cli.js'
import { cli, emulator, tempdir, writes } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const LONG_TEAM = 'Payments platform and checkout reliability engineering, '.repeat(5).trim()

describe('a team with a name longer than 255 characters', () => {
  it('is named in YAML: validate accepts it, apply sends its id, and the plan after is empty', async () => {
    expect(LONG_TEAM.length).toBeGreaterThan(255)
    const seed = exampleSeed()
    seed.teams = [...(seed.teams ?? []), { id: 'TmLongName111', name: LONG_TEAM }]
    const em = await emulator({ seed })
    const dir = tempdir({ 'agents.yaml': `agents:\n  - id: 6NbVcX4zLkJh\n    teams: [{name: "${LONG_TEAM}"}]\n` })

    const validate = await runCli(['validate', '.'], { cwd: dir, env: {} })
    expect(validate.code, validate.stdout + validate.stderr).toBe(0)

    em.clearRequests()
    const applied = await cli(em, dir, ['apply', '--auto-approve'])
    expect(applied.code, applied.stdout + applied.stderr).toBe(0)
    expect(writes(em).map((r) => [r.method, r.path, r.body])).toEqual([['PATCH', '/scanning-agents/6NbVcX4zLkJh/', { teams: [{ id: 'TmLongName111' }] }]])

    const after = await cli(em, dir, ['plan', '--detailed-exitcode'])
    expect(after.code, after.stdout + after.stderr).toBe(0)
  })

  it('an agent named in YAML keeps the document limit of 255 characters', async () => {
    const dir = tempdir({ 'targets.yaml': `targets:\n  - id: T1\n    scanning_agent: {name: "${'a'.repeat(256)}"}\n` })
    const validate = await runCli(['validate', '.'], { cwd: dir, env: {} })
    expect(validate.code).toBe(1)
    expect(validate.stderr).toContain('targets.yaml:3:28: target T1: scanning_agent.name must be at most 255 characters (got 256)')
  })
})
