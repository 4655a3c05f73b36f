// The list endpoints are not in the interface document. Pages that do not say `page_total` must
// not have scansync read page 1 alone (drift --unmanaged and audit would pass over every resource
// past it in silence, and apply create again a target declared by the URL of one on page 2), nor
// pages past the end: Django REST framework's page-number pages (count, next, previous, results)
// with a page size of their own; pages saying count and a `length` that is not their size (the
// length asked for, or a smaller one: a page 1 that is not the last is full, its results are the
// page size); and cursor pages (next, no count), which stop a whole-list read with an error. The
// real CLI, through a proxy serving the emulator's lists (teams too) two a page.
import { beforeAll, describe, expect, it } from 'vitest'
import type { Emulator } from '../../src/emulator/index.js'
import { pageTotalOf } from '../../src/live/pages.js'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir, TOKEN } from './helpers.js'
import { LIST_PATHS, startProxy } from './proxy.js'

beforeAll(ensureBuilt, 120_000)

/** What a page says beside its results, given the emulator's page (two a page) and the query. */
type PageShape = (page: { count: number; n: number; path: string; askedLength: number }) => Record<string, unknown>

const DJANGO: PageShape = ({ count, n, path }) => ({ count, next: n * 2 < count ? `${path}?page=${n + 1}` : null, previous: n > 1 ? `${path}?page=${n - 1}` : null })
const LENGTH_ASKED: PageShape = ({ count, n, askedLength }) => ({ count, page: n, length: askedLength })
const LENGTH_SMALLER: PageShape = ({ count, n }) => ({ count, page: n, length: 1 })
const CURSOR: PageShape = ({ path }) => ({ next: `${path}?cursor=cD0y`, previous: null })

function pagedByTwo(em: Emulator, shape: PageShape): Promise<{ url: string }> {
  return startProxy(em.url, async (request, forward) => {
    if (request.method !== 'GET' || !(LIST_PATHS.has(request.path) || request.path === '/teams/')) return forward()
    const query = new URL(request.url, 'http://x').searchParams
    const n = shape === CURSOR ? 1 : Number(query.get('page') ?? '1')
    const upstream = await fetch(`${em.url}${request.path}?page=${n}&length=2`, { headers: { authorization: `JWT ${TOKEN}` } })
    const answer = { status: upstream.status, body: await upstream.text() }
    if (answer.status !== 200) return answer
    const { count, results } = JSON.parse(answer.body) as { count: number; results: unknown[] }
    return { ...answer, body: JSON.stringify({ ...shape({ count, n, path: request.path, askedLength: Number(query.get('length') ?? '100') }), results }) }
  })
}

const ONE_TARGET = { 'targets.yaml': 'targets:\n  - id: 2DZkoZH8WMEM\n    fail_fast: true\n' }

describe.each([
  ['Django pages (count, next, previous)', DJANGO],
  ['pages saying the length asked for', LENGTH_ASKED],
  ['pages saying a length smaller than theirs', LENGTH_SMALLER],
])('%s', (_, shape) => {
  it('drift --unmanaged lists every target and agent past page 1', async () => {
    const em = await emulator()
    const proxy = await pagedByTwo(em, shape)
    const run = await cli(em, tempdir(ONE_TARGET), ['drift', '.', '--unmanaged', '--format', 'json'], { SCANSYNC_API_URL: proxy.url })
    expect(run.code, run.stderr).toBe(2)
    const unmanaged = (JSON.parse(run.stdout) as { unmanaged: Array<{ kind: string; id: string }> }).unmanaged
    expect(unmanaged.filter((u) => u.kind === 'target').map((u) => u.id).sort()).toEqual(['5HnBvC3xZaQw', '7QwErTy2UiOp', '9XcVbN5mQwEr'])
    expect(unmanaged.filter((u) => u.kind === 'agent').map((u) => u.id).sort()).toEqual(['2PqRsT6uVwXy', '3kLx8Qy7Pb2m', '6NbVcX4zLkJh'])
  })

  it('apply updates a target declared by the URL of one on page 2, and creates none', async () => {
    const em = await emulator()
    const proxy = await pagedByTwo(em, shape)
    const dir = tempdir({ 'targets.yaml': 'targets:\n  - site: {name: Promo, url: "https://promo.example.com/"}\n    fail_fast: false\n' })
    const run = await cli(em, dir, ['apply', '.', '--auto-approve', '--format', 'json'], { SCANSYNC_API_URL: proxy.url })
    expect(run.code, run.stderr).toBe(0)
    expect(em.requests().filter((r) => r.method === 'POST')).toEqual([])
    expect(em.requests().filter((r) => r.method === 'PATCH').map((r) => r.path)).toEqual(['/targets/9XcVbN5mQwEr/'])
  })
})

it('plan finds a team named in the YAML on page 2 of a Django team list', async () => {
  const em = await emulator()
  const proxy = await pagedByTwo(em, DJANGO)
  const dir = tempdir({ 'agents.yaml': 'agents:\n  - id: 6NbVcX4zLkJh\n    teams: [{name: Marketing}]\n' })
  const run = await cli(em, dir, ['plan', '.', '--format', 'json'], { SCANSYNC_API_URL: proxy.url })
  expect(run.code, run.stderr).toBe(0)
  const change = (JSON.parse(run.stdout) as { changes: Array<{ id: string; fields: Array<{ path: string; after: unknown }> }> }).changes[0]
  expect(change.id).toBe('6NbVcX4zLkJh')
  expect(JSON.stringify(change.fields)).toContain('TmQ4Ww7Ee2Rr')
})

it('cursor pages (a next page, no count): an error for a whole-list read, not page 1 alone; declared ids are read by id', async () => {
  const em = await emulator()
  const proxy = await pagedByTwo(em, CURSOR)
  const run = await cli(em, tempdir(ONE_TARGET), ['drift', '.', '--unmanaged'], { SCANSYNC_API_URL: proxy.url })
  expect(run.code).toBe(1)
  expect(run.stderr).toContain('GET /targets/: page 1 of the target list links a next page but says neither page_total nor count')
  expect(run.stdout).not.toMatch(/^\? target /m)
  const three = tempdir({ 'targets.yaml': 'targets:\n' + ['2DZkoZH8WMEM', '5HnBvC3xZaQw', '9XcVbN5mQwEr'].map((id) => `  - id: ${id}\n    fail_fast: true\n`).join('') })
  const planned = await cli(em, three, ['plan', '.', '--format', 'json'], { SCANSYNC_API_URL: proxy.url })
  expect(planned.code, planned.stderr).toBe(0)
  expect((JSON.parse(planned.stdout) as { changes: Array<{ id: string }> }).changes.map((c) => c.id)).toEqual(['2DZkoZH8WMEM'])
})

it('the page count of pages without page_total', () => {
  const two = [{ id: 'a' }, { id: 'b' }]
  expect(pageTotalOf({ count: 5, length: 100, results: two })).toBe(3)
  expect(pageTotalOf({ count: 5, length: 1, results: two })).toBe(3)
  expect(pageTotalOf({ count: 2, length: 100, results: two })).toBe(1)
  expect(pageTotalOf({ count: 0, length: 100, results: [] })).toBe(0)
  expect(pageTotalOf({ count: 5, length: 2, results: [] })).toBe(3)
  expect(pageTotalOf({ count: 5, results: [] })).toBe(1)
  expect(pageTotalOf({ page_total: 4, count: 5, length: 100, results: two })).toBe(4)
})
