// Review round 20 (the newest changes, attacked): a list page without page_total that says count and
// a `length` smaller than the results it gives (a service paging by a size of its own). When page 1
// holds the whole list (count results), there is no page 2; scansync took `length` for the page size
// there and read pages past the end, which the service answers 404: the run was refused as a list
// that moved while read. Page 1 holding count results is the only page. The real CLI, through a proxy.
import { beforeAll, expect, it } from 'vitest'
import type { Emulator } from '../../src/emulator/index.js'
import { pageTotalOf } from '../../src/live/pages.js'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir, TOKEN } from '../e2e/helpers.js'
import { LIST_PATHS, startProxy } from '../e2e/proxy.js'

beforeAll(ensureBuilt, 120_000)

/** The emulator's lists, 100 a page (every list on one page), saying count and a length of 1, no page_total. */
function pagedByHundred(em: Emulator): Promise<{ url: string }> {
  return startProxy(em.url, async (request, forward) => {
    if (request.method !== 'GET' || !(LIST_PATHS.has(request.path) || request.path === '/teams/')) return forward()
    const query = new URL(request.url, 'http://x').searchParams
    const page = Number(query.get('page') ?? '1')
    const upstream = await fetch(`${em.url}${request.path}?page=${page}&length=100`, { headers: { authorization: `JWT ${TOKEN}` } })
    const answer = { status: upstream.status, body: await upstream.text() }
    if (answer.status !== 200) return answer
    const { count, results } = JSON.parse(answer.body) as { count: number; results: unknown[] }
    return { ...answer, body: JSON.stringify({ count, page, length: 1, results }) }
  })
}

it('drift --unmanaged reads a list whose page 1 holds every resource as one page', async () => {
  const em = await emulator()
  const proxy = await pagedByHundred(em)
  const dir = tempdir({ 'targets.yaml': 'targets:\n  - id: 2DZkoZH8WMEM\n    fail_fast: true\n' })
  const run = await cli(em, dir, ['drift', '.', '--unmanaged', '--format', 'json'], { SCANSYNC_API_URL: proxy.url })
  expect(run.code, run.stderr).toBe(2)
  const unmanaged = (JSON.parse(run.stdout) as { unmanaged: Array<{ kind: string; id: string }> }).unmanaged
  expect(unmanaged.filter((u) => u.kind === 'target').map((u) => u.id).sort()).toEqual(['5HnBvC3xZaQw', '7QwErTy2UiOp', '9XcVbN5mQwEr'])
  expect(em.requests().filter((r) => r.method === 'GET' && r.query.page === '2')).toEqual([])
})

it('the page count of a page 1 that holds the whole list', () => {
  const two = [{ id: 'a' }, { id: 'b' }]
  expect(pageTotalOf({ count: 2, length: 1, results: two })).toBe(1)
  expect(pageTotalOf({ count: 5, length: 1, results: two })).toBe(3)
  expect(pageTotalOf({ count: 0, length: 100, results: [] })).toBe(0)
})
