// Review round 21 (attacks on the round's changes): plans now show the names of the agent and team
// lists read to check the ids the YAML refers to. Two teams (or agents) may carry one name on the
// service; a reference to one of them was then shown by that name, which does not say which:
// `teams: [Platform] -> [Platform]` for an agent moved from one team Platform to the other (a
// change that reads as none), `scanning_agent: null -> dc-lisbon-agent` for a target attached to
// the other agent named so. The YAML refuses such a name as ambiguous; a plan shows the id there.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, exampleSeed, tempdir } from './helpers.js'
import type { EmulatorSeed } from '../../src/emulator/index.js'

beforeAll(ensureBuilt, 120_000)

const PLATFORM = 'Tm8Kq2Xa9Lp3'
const OTHER_PLATFORM = 'TmDup0000001'
const LISBON = '3kLx8Qy7Pb2m'
const OTHER_LISBON = 'AgDup0000001'
const TARGET = '7QwErTy2UiOp'

/** The example seed, with a second team Platform and a second agent dc-lisbon-agent. */
function seedWithSharedNames(): EmulatorSeed {
  const seed = structuredClone(exampleSeed()) as EmulatorSeed & { teams: Array<{ id: string; name: string }>; agents: Array<Record<string, unknown>> }
  seed.teams.push({ id: OTHER_PLATFORM, name: 'Platform' })
  const porto = seed.agents.find((agent) => agent.id === '6NbVcX4zLkJh')!
  seed.agents.push({ ...porto, id: OTHER_LISBON, name: 'dc-lisbon-agent', teams: [] })
  return seed
}

describe('a name two teams or agents share on the service, in a plan', () => {
  it('the team an agent moves to, named like the one it leaves: shown by ids, in text, markdown and a saved plan applied', async () => {
    const em = await emulator({ seed: seedWithSharedNames() })
    const dir = tempdir({ 'c.yaml': `agents:\n  - id: ${LISBON}\n    teams: [${OTHER_PLATFORM}]\n` })
    const run = await cli(em, dir, ['plan'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).not.toContain('[Platform] -> [Platform]')
    expect(run.stdout).toContain(`    teams:\n        + "${OTHER_PLATFORM}"\n        - "${PLATFORM}"\n`)
    const markdown = await cli(em, dir, ['plan', '--format', 'markdown'])
    expect(markdown.stdout).not.toContain('\\[Platform\\]</code> | <code>\\[Platform\\]')
    const saved = await cli(em, dir, ['plan', '--out', 'p.json'])
    expect(saved.code, saved.stderr).toBe(0)
    const applied = await cli(em, dir, ['apply', '--plan', 'p.json', '--auto-approve'])
    expect(applied.code, applied.stderr).toBe(0)
    expect(applied.stdout).toContain(`        + "${OTHER_PLATFORM}"\n        - "${PLATFORM}"\n`)
    expect(applied.stdout).not.toContain('Platform')
  })

  it('a target attached by id to the second agent of a name: shown by its id', async () => {
    const em = await emulator({ seed: seedWithSharedNames() })
    const dir = tempdir({ 'c.yaml': `targets:\n  - id: ${TARGET}\n    scanning_agent: ${OTHER_LISBON}\n` })
    const run = await cli(em, dir, ['plan'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain(`scanning_agent: null -> {id: "${OTHER_LISBON}"}\n`)
  })

  it('a name only one has is still shown, beside the id of a shared one', async () => {
    const em = await emulator({ seed: seedWithSharedNames() })
    const dir = tempdir({ 'c.yaml': `agents:\n  - id: ${LISBON}\n    teams: [${PLATFORM}, Tm1Zz9Yy8Xx7]\n` })
    const run = await cli(em, dir, ['plan'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain(`teams: ["${PLATFORM}"] -> [Security, ${PLATFORM}]`)
    expect(run.stdout).not.toContain('Platform]')
  })
})
