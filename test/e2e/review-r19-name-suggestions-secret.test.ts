// Review round 19 (one nightly drift/plan with everything at once, in all four formats): a team or
// agent name the configuration mistypes is an error at its line with the closest live names. A
// live name holding a weak secret of the run (a short variable's value, which the output step
// cannot replace without revealing it) was offered there in clear: `did you mean "Sec qz7x"?`.
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleSeed, tempdir } from './helpers.js'

const WEAK = 'qz7x'

const CONFIG = `assets:
  - id: 4TrEwQ9aSdFg
    comment: "\${WEAK}"
agents:
  - id: 6NbVcX4zLkJh
    teams: [{name: "Sec qz7y"}]
  - name: "fallback qz7y"
`

describe('a mistyped team or agent name', () => {
  it.each(['text', 'github'])('is not answered with a live name holding a weak secret (plan --format %s)', async (format) => {
    const seed = exampleSeed()
    seed.teams = seed.teams!.map((team) => (team.id === 'Tm1Zz9Yy8Xx7' ? { ...team, name: `Sec ${WEAK}` } : team))
    seed.agents = seed.agents!.map((agent) => (agent.id === '2PqRsT6uVwXy' ? { ...agent, name: `fallback ${WEAK}` } : agent))
    const em = await emulator({ seed })
    const dir = tempdir({ 'c.yaml': CONFIG })
    const plan = await cli(em, dir, ['plan', '--format', format], { WEAK })
    expect(plan.code).toBe(1)
    // Both errors still said, at their lines.
    expect(plan.stderr).toMatch(/c\.yaml.*6.*no team is named "Sec qz7y"/)
    expect(plan.stderr).toMatch(/c\.yaml.*7.*"fallback qz7y": no live agent has this name/)
    expect(plan.stdout + plan.stderr).not.toContain(WEAK)
  })
})
