// Review round 21 (attacks on the final changes): an agent whose YAML empties its teams
// (`teams: []` or `null`) names no team, and README says the team list is "read only when an agent
// names a team". Since the plan began reading the team list to name the teams the agent leaves, a
// service that refuses that list (403: the token may read agents but not teams; or a 500) made
// plan, drift and apply of `teams: []` fail ("the team list: the token is not allowed to read it"),
// where they worked before. The list is read only to name: a list that cannot be read leaves the
// teams shown by id, as before; a team listed by id is still checked against it.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'
import { startProxy } from './proxy.js'

beforeAll(ensureBuilt, 120_000)

const refusingTeams = (upstream: string, status: number) =>
  startProxy(upstream, async (request, forward) => (request.path.startsWith('/teams') ? { status, body: JSON.stringify({ detail: 'no' }) } : forward()))

describe('an agent emptying its teams on a service that refuses the team list', () => {
  for (const status of [403, 500]) {
    it(`plans, drifts and applies teams: [] when GET /teams/ answers ${status}`, async () => {
      const em = await emulator()
      const proxy = await refusingTeams(em.url, status)
      const env = { SCANSYNC_API_URL: proxy.url }
      const dir = tempdir({ 'c.yaml': 'agents:\n  - id: 3kLx8Qy7Pb2m\n    teams: []\n' })
      const planned = await cli(em, dir, ['plan'], env)
      expect(planned.code, planned.stderr).toBe(0)
      expect(planned.stdout).toContain('~ agent 3kLx8Qy7Pb2m "dc-lisbon-agent"\n    teams:\n        - "Tm8Kq2Xa9Lp3"\n')
      const drift = await cli(em, dir, ['drift'], env)
      expect(drift.code, drift.stderr).toBe(2)
      const applied = await cli(em, dir, ['apply', '--auto-approve'], env)
      expect(applied.code, applied.stderr).toBe(0)
      expect(em.get('agent', '3kLx8Qy7Pb2m')).toMatchObject({ teams: [] })
    })
  }

  it('teams: null likewise', async () => {
    const em = await emulator()
    const proxy = await refusingTeams(em.url, 403)
    const dir = tempdir({ 'c.yaml': 'agents:\n  - id: 3kLx8Qy7Pb2m\n    teams: null\n' })
    const planned = await cli(em, dir, ['plan'], { SCANSYNC_API_URL: proxy.url })
    expect(planned.code, planned.stderr).toBe(0)
    expect(planned.stdout).toContain('Plan: 1 to change, 0 unchanged.')
  })

  it('a team listed by id is still checked against the list: its refusal is still an error', async () => {
    const em = await emulator()
    const proxy = await refusingTeams(em.url, 403)
    const dir = tempdir({ 'c.yaml': 'agents:\n  - id: 3kLx8Qy7Pb2m\n    teams: []\n  - id: 6NbVcX4zLkJh\n    teams: [Tm1Zz9Yy8Xx7]\n' })
    const planned = await cli(em, dir, ['plan'], { SCANSYNC_API_URL: proxy.url })
    expect(planned.code).toBe(1)
    expect(planned.stderr).toContain('the team list: the token is not allowed to read it (HTTP 403)')
  })
})
