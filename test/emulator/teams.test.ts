// GET /teams/ and GET /teams/:id/: the names that `teams: [{name: Platform}]` refers to.
import { describe, expect, it } from 'vitest'
import { readSeedFile } from '../../src/emulator/index.js'
import { call, emulator } from './helpers.js'

describe('emulator teams', () => {
  it('lists teams in pages with the envelope of the other lists, ordered by id', async () => {
    const teams = Array.from({ length: 7 }, (_, i) => ({ id: `Team${String(6 - i).padStart(8, '0')}`, name: `Team ${6 - i}` }))
    const em = await emulator({ seed: { teams } })
    const all = await call(em, 'GET', '/teams/')
    expect(all.status).toBe(200)
    expect(all.json).toEqual({ count: 7, page_total: 1, page: 1, length: 100, results: [...teams].sort((a, b) => a.id.localeCompare(b.id)) })
    const page = await call(em, 'GET', '/teams/?page=2&length=3')
    expect(page.json).toMatchObject({ count: 7, page_total: 3, page: 2, length: 3 })
    expect(page.json.results.map((t: { name: string }) => t.name)).toEqual(['Team 3', 'Team 4', 'Team 5'])
    expect((await call(em, 'GET', '/teams/?page=last&length=3')).json.results).toEqual([{ id: 'Team00000006', name: 'Team 6' }])
    expect((await call(em, 'GET', '/teams/?page=4&length=3')).status).toBe(404)
  })

  it('an account without teams has one empty page', async () => {
    const em = await emulator({ seed: {} })
    expect((await call(em, 'GET', '/teams/')).json).toEqual({ count: 0, page_total: 1, page: 1, length: 100, results: [] })
  })

  it('answers a team by id with its name; 404 for an unknown one; the token is needed', async () => {
    const em = await emulator()
    expect(await call(em, 'GET', '/teams/TeamOne11111/')).toMatchObject({ status: 200, json: { id: 'TeamOne11111', name: 'One' } })
    expect(await call(em, 'GET', '/teams/Nope/')).toMatchObject({ status: 404, json: { detail: 'Not found.' } })
    expect((await call(em, 'GET', '/teams/', undefined, {})).status).toBe(401)
    expect((await call(em, 'GET', '/teams/a/b/')).status).toBe(404)
  })

  it('lists a team seeded only by an agent reference, under the name the seed gave it', async () => {
    const em = await emulator({ seed: { agents: [{ id: 'Agent1', name: 'a', teams: [{ id: 'TeamNew', name: 'New' } as { id: string }] }] } })
    expect((await call(em, 'GET', '/teams/')).json.results).toEqual([{ id: 'TeamNew', name: 'New' }])
  })

  it('faults strike team requests too, a not-resource list in the list shape', async () => {
    const em = await emulator({ faults: [{ type: 'not-resource', count: 1, path: '/teams/' }, { type: '503', count: 1, path: '/teams/' }] })
    expect((await call(em, 'GET', '/teams/')).text).toBe('[]')
    expect((await call(em, 'GET', '/teams/TeamOne11111/')).status).toBe(503)
    expect((await call(em, 'GET', '/teams/TeamOne11111/')).status).toBe(200)
  })

  it('the example seed names its teams, and every agent refers to known teams', async () => {
    const seed = await readSeedFile(new URL('../../examples/emulator-seed.json', import.meta.url).pathname)
    const em = await emulator({ seed })
    const teams = (await call(em, 'GET', '/teams/')).json.results as { id: string; name: string }[]
    expect(teams.map((t) => t.name).sort()).toEqual(['Marketing', 'Platform', 'Security'])
    const known = new Set(seed.teams!.map((t) => t.id))
    for (const agent of seed.agents ?? []) for (const team of agent.teams ?? []) expect(known.has(String(team.id)), `${agent.id} → ${team.id}`).toBe(true)
    expect((await call(em, 'GET', `/teams/${teams[0].id}/`)).json).toEqual(teams[0])
  })
})
