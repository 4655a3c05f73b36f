// Review round 20 (this round's pages, attacked): a list page without page_total says how many
// resources there are (count) and a `length` that is not the size of its pages: a service that pages
// by a size of its own and answers the length asked for (100) beside two results a page, or one that
// answers a length smaller than the results it gives. scansync took `length` for the page size: it
// read 1 page of the first (drift --unmanaged passed over the targets and agents past page 1 in
// silence, and apply created again a target declared by the URL of one on page 2), and pages past the
// end of the second (refused as a service that does not serve them). A page 1 that is not the last
// one is full: its results are the page size. The real CLI, through a proxy before the emulator.
import { beforeAll, expect, it } from 'vitest'
import type { Emulator } from '../../src/emulator/index.js'
import { pageTotalOf } from '../../src/live/pages.js'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir, TOKEN } from '../e2e/helpers.js'
import { LIST_PATHS, startProxy } from '../e2e/proxy.js'

beforeAll(ensureBuilt, 120_000)

/** The emulator's lists, two a page, saying count and `length` (as given) but no page_total. */
function pagedByTwo(em: Emulator, length: (asked: number) => number): Promise<{ url: string }> {
  return startProxy(em.url, async (request, forward) => {
    if (request.method !== 'GET' || !(LIST_PATHS.has(request.path) || request.path === '/teams/')) return forward()
    const query = new URL(request.url, 'http://x').searchParams
    const page = Number(query.get('page') ?? '1')
    const upstream = await fetch(`${em.url}${request.path}?page=${page}&length=2`, { headers: { authorization: `JWT ${TOKEN}` } })
    const answer = { status: upstream.status, body: await upstream.text() }
    if (answer.status !== 200) return answer
    const { count, results } = JSON.parse(answer.body) as { count: number; results: unknown[] }
    return { ...answer, body: JSON.stringify({ count, page, length: length(Number(query.get('length') ?? '100')), results }) }
  })
}

it.each([
  ['the length asked for', (asked: number) => asked],
  ['a length smaller than its pages', () => 1],
])('drift --unmanaged lists every target and agent of pages saying %s', async (_, length) => {
  const em = await emulator()
  const proxy = await pagedByTwo(em, length)
  const dir = tempdir({ 'targets.yaml': 'targets:\n  - id: 2DZkoZH8WMEM\n    fail_fast: true\n' })
  const run = await cli(em, dir, ['drift', '.', '--unmanaged', '--format', 'json'], { SCANSYNC_API_URL: proxy.url })
  expect(run.code, run.stderr).toBe(2)
  const unmanaged = (JSON.parse(run.stdout) as { unmanaged: Array<{ kind: string; id: string }> }).unmanaged
  expect(unmanaged.filter((u) => u.kind === 'target').map((u) => u.id).sort()).toEqual(['5HnBvC3xZaQw', '7QwErTy2UiOp', '9XcVbN5mQwEr'])
  expect(unmanaged.filter((u) => u.kind === 'agent').map((u) => u.id).sort()).toEqual(['2PqRsT6uVwXy', '3kLx8Qy7Pb2m', '6NbVcX4zLkJh'])
})

it('apply updates a target declared by the URL of one on page 2, and creates none', async () => {
  const em = await emulator()
  const proxy = await pagedByTwo(em, (asked) => asked)
  const dir = tempdir({ 'targets.yaml': 'targets:\n  - site: {name: Promo, url: "https://promo.example.com/"}\n    fail_fast: false\n' })
  const run = await cli(em, dir, ['apply', '.', '--auto-approve', '--format', 'json'], { SCANSYNC_API_URL: proxy.url })
  expect(run.code, run.stderr).toBe(0)
  expect(em.requests().filter((r) => r.method === 'POST')).toEqual([])
  expect(em.requests().filter((r) => r.method === 'PATCH').map((r) => r.path)).toEqual(['/targets/9XcVbN5mQwEr/'])
})

it('the page count of such pages', () => {
  const two = [{ id: 'a' }, { id: 'b' }]
  expect(pageTotalOf({ count: 5, length: 100, results: two })).toBe(3)
  expect(pageTotalOf({ count: 5, length: 1, results: two })).toBe(3)
  expect(pageTotalOf({ count: 2, length: 100, results: two })).toBe(1)
  expect(pageTotalOf({ count: 0, length: 100, results: [] })).toBe(0)
  expect(pageTotalOf({ count: 5, length: 2, results: [] })).toBe(3)
  expect(pageTotalOf({ count: 5, results: [] })).toBe(1)
  expect(pageTotalOf({ page_total: 4, count: 5, length: 100, results: two })).toBe(4)
})
