// The list endpoints are not in the interface document. A service whose list pages say how many
// resources there are (`count`) but neither `page_total` nor `length` (Django REST framework's
// page-number pages: count, next, previous, results), with a page size of its own, must not have
// scansync read page 1 alone: drift --unmanaged (and audit) would pass over every resource past it
// in silence. The real CLI, through a proxy serving the emulator's lists that way, two a page.
import { beforeAll, expect, it } from 'vitest'
import type { Emulator } from '../../src/emulator/index.js'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir, TOKEN } from './helpers.js'
import { LIST_PATHS, startProxy } from './proxy.js'

beforeAll(ensureBuilt, 120_000)

/** The emulator's lists (teams too) as such a service serves them: count, next, previous, results; two a page. */
function pagedByTwo(em: Emulator): Promise<{ url: string }> {
  return startProxy(em.url, async (request, forward) => {
    if (request.method !== 'GET' || !(LIST_PATHS.has(request.path) || request.path === '/teams/')) return forward()
    const page = Number(new URL(request.url, 'http://x').searchParams.get('page') ?? '1')
    const upstream = await fetch(`${em.url}${request.path}?page=${page}&length=2`, { headers: { authorization: `JWT ${TOKEN}` } })
    const answer = { status: upstream.status, body: await upstream.text() }
    if (answer.status !== 200) return answer
    const { count, results } = JSON.parse(answer.body) as { count: number; results: unknown[] }
    const next = page * 2 < count ? `${request.path}?page=${page + 1}` : null
    const previous = page > 1 ? `${request.path}?page=${page - 1}` : null
    return { ...answer, body: JSON.stringify({ count, next, previous, results }) }
  })
}

it('drift --unmanaged lists the targets and agents past page 1 of such a list', async () => {
  const em = await emulator()
  const proxy = await pagedByTwo(em)
  const dir = tempdir({ 'targets.yaml': 'targets:\n  - id: 2DZkoZH8WMEM\n    fail_fast: true\n' })
  const run = await cli(em, dir, ['drift', '.', '--unmanaged', '--format', 'json'], { SCANSYNC_API_URL: proxy.url })
  expect(run.code, run.stderr).toBe(2)
  const unmanaged = (JSON.parse(run.stdout) as { unmanaged: Array<{ kind: string; id: string }> }).unmanaged
  expect(unmanaged.filter((u) => u.kind === 'target').map((u) => u.id).sort()).toEqual(['5HnBvC3xZaQw', '7QwErTy2UiOp', '9XcVbN5mQwEr'])
  expect(unmanaged.filter((u) => u.kind === 'agent').map((u) => u.id).sort()).toEqual(['2PqRsT6uVwXy', '3kLx8Qy7Pb2m', '6NbVcX4zLkJh'])
})

it('plan finds a team named in the YAML on page 2 of such a team list', async () => {
  const em = await emulator()
  const proxy = await pagedByTwo(em)
  const dir = tempdir({ 'agents.yaml': 'agents:\n  - id: 6NbVcX4zLkJh\n    teams: [{name: Marketing}]\n' })
  const run = await cli(em, dir, ['plan', '.', '--format', 'json'], { SCANSYNC_API_URL: proxy.url })
  expect(run.code, run.stderr).toBe(0)
  const change = (JSON.parse(run.stdout) as { changes: Array<{ id: string; fields: Array<{ path: string; after: unknown }> }> }).changes[0]
  expect(change.id).toBe('6NbVcX4zLkJh')
  expect(JSON.stringify(change.fields)).toContain('TmQ4Ww7Ee2Rr')
})

it('apply updates a target declared by the URL of one on page 2 of such a list, and creates none', async () => {
  const em = await emulator()
  const proxy = await pagedByTwo(em)
  const dir = tempdir({ 'targets.yaml': 'targets:\n  - site: {name: Promo, url: "https://promo.example.com/"}\n    fail_fast: false\n' })
  const run = await cli(em, dir, ['apply', '.', '--auto-approve', '--format', 'json'], { SCANSYNC_API_URL: proxy.url })
  expect(run.code, run.stderr).toBe(0)
  expect(em.requests().filter((r) => r.method === 'POST')).toEqual([])
  expect(em.requests().filter((r) => r.method === 'PATCH').map((r) => r.path)).toEqual(['/targets/9XcVbN5mQwEr/'])
})

it('drift --unmanaged over list pages that link a next page but count nothing (cursor pages): an error, not page 1 alone', async () => {
  const em = await emulator()
  const proxy = await startProxy(em.url, async (request, forward) => {
    if (request.method !== 'GET' || !(LIST_PATHS.has(request.path) || request.path === '/teams/')) return forward()
    const upstream = await fetch(`${em.url}${request.path}?page=1&length=2`, { headers: { authorization: `JWT ${TOKEN}` } })
    const { results } = JSON.parse(await upstream.text()) as { results: unknown[] }
    return { status: 200, body: JSON.stringify({ next: `${request.path}?cursor=cD0y`, previous: null, results }) }
  })
  const dir = tempdir({ 'targets.yaml': 'targets:\n  - id: 2DZkoZH8WMEM\n    fail_fast: true\n' })
  const run = await cli(em, dir, ['drift', '.', '--unmanaged'], { SCANSYNC_API_URL: proxy.url })
  // A plan of declared ids needs no whole list: those not on page 1 are read by id, as before.
  const three = tempdir({ 'targets.yaml': 'targets:\n' + ['2DZkoZH8WMEM', '5HnBvC3xZaQw', '9XcVbN5mQwEr'].map((id) => `  - id: ${id}\n    fail_fast: true\n`).join('') })
  const planned = await cli(em, three, ['plan', '.', '--format', 'json'], { SCANSYNC_API_URL: proxy.url })
  expect(planned.code, planned.stderr).toBe(0)
  expect((JSON.parse(planned.stdout) as { changes: Array<{ id: string }> }).changes.map((c) => c.id)).toEqual(['2DZkoZH8WMEM'])
  expect(run.code).toBe(1)
  expect(run.stderr).toContain('GET /targets/: page 1 of the target list links a next page but says neither page_total nor count')
  expect(run.stdout).not.toMatch(/^\? target /m)
})
