// A service (or a proxy) whose team list claims more pages or teams than scansync reads: the
// caps of the kinds' lists hold for the team list too (it was read with every page asked for at
// once, however many the first page claimed: billions of requests and promises, a hang).
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'
import { startProxy } from './proxy.js'

const TEAM = { id: 'Tm8Kq2Xa9Lp3', name: 'Platform' }

describe('a team list page claiming more than scansync reads', () => {
  it.each([
    ['pages', { page_total: 20_000 }, /GET \/teams\/: the service says the team list has 20000 pages, more than the 10000 scansync reads/],
    ['teams', { page_total: 1, count: 2_000_000_000 }, /GET \/teams\/: the service says it has 2000000000 teams, more than the 1000000 scansync reads/],
  ])('(%s): a clear error after page 1, exit 1, nothing more asked for or sent', { timeout: 60_000 }, async (_, envelope, message) => {
    const em = await emulator()
    let teamPages = 0
    const proxy = await startProxy(em.url, async (request, forward) => {
      if (request.path !== '/teams/') return forward()
      teamPages++
      return { status: 200, body: JSON.stringify({ page: 1, results: [TEAM], ...envelope }) }
    })
    const dir = tempdir({ 'agents.yaml': 'agents:\n  - id: 3kLx8Qy7Pb2m\n    teams: [{name: Platform}]\n' })
    for (const command of [['plan'], ['apply', '--auto-approve']]) {
      teamPages = 0
      const run = await cli(em, dir, command, { SCANSYNC_API_URL: proxy.url })
      expect(run.code, run.stdout).toBe(1)
      expect(run.stderr).toMatch(message)
      expect(teamPages).toBe(1)
    }
    expect(em.requests().filter((r) => r.method !== 'GET')).toEqual([])
  })
})
