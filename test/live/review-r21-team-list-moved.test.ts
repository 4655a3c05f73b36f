// Review round 21 (the service changing while scansync reads): the team list (read to turn the
// names in `teams: [{name: …}]` into ids, and to check the team ids agents list) was read page by
// page with its own loop, which never noticed a list that moved while it was read. A team deleted
// by someone else once page 1 was answered moved the first team of page 2 onto page 1, unseen: a
// plan on a pull request then said, at the YAML line, that no team is named "Team 100" (did you
// mean the team just deleted?) or that no team has its id, though that team was there throughout.
// The team list is now read by the one list reader, as the kinds' lists are: a page counting other
// teams than page 1 did has the list read again, a team met in any read counting once.
import { beforeAll, describe, expect, it } from 'vitest'
import type { EmulatorSeed } from '../../src/emulator/index.js'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, exampleSeed, tempdir } from '../e2e/helpers.js'
import { startProxy } from '../e2e/proxy.js'

beforeAll(ensureBuilt, 120_000)

const teamId = (n: number) => `Tm${String(n).padStart(10, '0')}`

/** 150 teams (two pages); team 10 deleted by someone else as soon as page 1 of the team list is answered. */
async function teamDeletedWhileRead(): Promise<{ em: Awaited<ReturnType<typeof emulator>>; url: string }> {
  const seed: EmulatorSeed = { ...exampleSeed(), teams: Array.from({ length: 150 }, (_, n) => ({ id: teamId(n), name: `Team ${n}` })) }
  const em = await emulator({ seed })
  let deleted = false
  const proxy = await startProxy(em.url, async (request, forward) => {
    const answer = await forward()
    if (!deleted && request.method === 'GET' && request.path === '/teams/' && /[?&]page=1(&|$)/.test(request.url)) {
      deleted = true
      em.seed({ ...seed, teams: seed.teams!.filter((_, n) => n !== 10) })
    }
    return answer
  })
  return { em, url: proxy.url }
}

describe('a team deleted by someone else while plan reads the team list', () => {
  it.each([
    ['by name', '[{name: Team 100}]'],
    ['by id', `[${teamId(100)}]`],
  ])('an agent listing team 100 (first on page 2) %s: planned, not an error at the YAML line', async (_, teams) => {
    const { em, url } = await teamDeletedWhileRead()
    const dir = tempdir({ 'agents.yaml': `agents:\n  - id: 6NbVcX4zLkJh\n    teams: ${teams}\n` })
    const run = await cli(em, dir, ['plan', '--format', 'json'], { SCANSYNC_API_URL: url })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const changes = (JSON.parse(run.stdout) as { changes: Array<{ id: string; fields: Array<{ path: string; after: unknown }> }> }).changes
    expect(changes.map((c) => c.id)).toEqual(['6NbVcX4zLkJh'])
    expect(JSON.stringify(changes[0].fields)).toContain(teamId(100))
    // The team list was read again once it had moved.
    expect(em.requests().filter((r) => r.path === '/teams/' && r.query.page === '1').length).toBeGreaterThan(1)
  })
})

it('a service that does not list teams: a team named in the YAML is a clear error saying what to do', async () => {
  const em = await emulator()
  const proxy = await startProxy(em.url, async (request, forward) => (request.path === '/teams/' ? { status: 404, body: '{"detail":"Not found."}' } : forward()))
  const dir = tempdir({ 'agents.yaml': 'agents:\n  - id: 6NbVcX4zLkJh\n    teams: [{name: Security}]\n' })
  const run = await cli(em, dir, ['plan'], { SCANSYNC_API_URL: proxy.url })
  expect(run.code).toBe(1)
  expect(run.stderr).toContain('the service does not list teams (GET /teams/ answered 404); refer to each team by its id instead')
})
