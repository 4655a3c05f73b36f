// Review round 19 (one nightly drift/plan with everything at once, in all four formats): plans show
// the names of the teams and agents a change refers to (`teams: [] -> [Security, Marketing]`). A
// name holding a secret of the run is (sensitive) there, as it is in a saved plan and everywhere
// else a change is shown: a weak secret (short, which the output step cannot replace without
// revealing it) printed in clear, and a long one left the rest of the name around it. Nor is a
// mistyped name, an error at its line, answered with such a live name (`did you mean "Sec qz7x"?`).
import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { cli, emulator, exampleSeed, tempdir } from './helpers.js'

const WEAK = 'qz7x'
const LONG = 'Team-Secret-r19-8Hq2'

const CONFIG = `assets:
  - id: 4TrEwQ9aSdFg
    comment: "\${WEAK} \${LONG}"
agents:
  - id: 6NbVcX4zLkJh
    teams: [{name: Marketing}, Tm1Zz9Yy8Xx7]
  - id: 3kLx8Qy7Pb2m
    teams: [{name: Marketing}]
targets:
  - id: 7QwErTy2UiOp
    scanning_agent: {name: dc-lisbon-agent}
`

/** A mistyped team and a mistyped agent name, near the live names holding the weak secret. */
const MISTYPED = `assets:
  - id: 4TrEwQ9aSdFg
    comment: "\${WEAK}"
agents:
  - id: 6NbVcX4zLkJh
    teams: [{name: "Sec qz7y"}]
  - name: "fallback qz7y"
`

async function account(config = CONFIG) {
  const seed = exampleSeed()
  // Security is named with the weak secret, Platform with the long one; the staging target's agent with the weak one.
  seed.teams = seed.teams!.map((team) => (team.id === 'Tm1Zz9Yy8Xx7' ? { ...team, name: `Sec ${WEAK}` } : team.id === 'Tm8Kq2Xa9Lp3' ? { ...team, name: `Plat ${LONG}` } : team))
  seed.agents = seed.agents!.map((agent) => (agent.id === '2PqRsT6uVwXy' ? { ...agent, name: `fallback ${WEAK}` } : agent))
  seed.targets = seed.targets!.map((target) => (target.id === '7QwErTy2UiOp' ? { ...target, scanning_agent: { id: '2PqRsT6uVwXy' } } : target))
  return { em: await emulator({ seed }), dir: tempdir({ 'c.yaml': config }) }
}

const env = { WEAK, LONG }

describe('the names a change refers to, holding a secret of the run', () => {
  it.each(['text', 'markdown', 'github', 'json'])('are (sensitive) whole in plan --format %s', async (format) => {
    const { em, dir } = await account()
    const plan = await cli(em, dir, ['plan', '--format', format], env)
    expect(plan.code, plan.stderr).toBe(0)
    const printed = plan.stdout + plan.stderr
    expect(printed).not.toContain(WEAK)
    expect(printed).not.toContain(LONG)
    // The changes are all still shown; the names that hold nothing stay.
    for (const id of ['6NbVcX4zLkJh', '3kLx8Qy7Pb2m', '7QwErTy2UiOp']) expect(plan.stdout).toContain(id)
    if (format === 'text') {
      expect(plan.stdout).toContain('teams: [] -> [(sensitive), Marketing]')
      expect(plan.stdout).toContain('teams: [(sensitive)] -> [Marketing]')
      expect(plan.stdout).toContain('scanning_agent: (sensitive) -> dc-lisbon-agent')
    }
  })

  it('read the same in drift, and as the saved plan keeps them', async () => {
    const { em, dir } = await account()
    const drift = await cli(em, dir, ['drift', '--format', 'github'], env)
    expect(drift.code, drift.stderr).toBe(2)
    expect(drift.stdout + drift.stderr).not.toContain(WEAK)
    expect(drift.stdout).toContain('teams: [(sensitive)] -> [Marketing]')
    const saved = await cli(em, dir, ['plan', '--out', 'saved.json'], env)
    expect(saved.code, saved.stderr).toBe(0)
    expect(readFileSync(join(dir, 'saved.json'), 'utf8')).not.toContain(WEAK)
    const applied = await cli(em, dir, ['apply', '--plan', 'saved.json', '--auto-approve'], env)
    expect(applied.code, applied.stderr).toBe(0)
    expect(applied.stdout + applied.stderr).not.toContain(WEAK)
  })
})

describe('a mistyped team or agent name', () => {
  it.each(['text', 'github'])('is not answered with a live name holding a weak secret (plan --format %s)', async (format) => {
    const { em, dir } = await account(MISTYPED)
    const plan = await cli(em, dir, ['plan', '--format', format], { WEAK })
    expect(plan.code).toBe(1)
    // Both errors still said, at their lines.
    expect(plan.stderr).toMatch(/c\.yaml.*6.*no team is named "Sec qz7y"/)
    expect(plan.stderr).toMatch(/c\.yaml.*7.*"fallback qz7y": no live agent has this name/)
    expect(plan.stdout + plan.stderr).not.toContain(WEAK)
  })
})
