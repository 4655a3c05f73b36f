// Review round 24 (the nightly job): a list page before the last that the service answers with
// fewer results than its page 1 counted (a page served empty, every page saying the same count and
// page_total: the list did not move). drift --unmanaged took what it got and printed "No drift"
// (exit 0) while two live targets no file declares sat on that page, and audit checked half the
// account and said so as if whole. A list read whole that holds fewer resources than it counts is
// read again, and refused when it still does. The real CLI, through a proxy serving the
// emulator's lists two a page, page 2 of the target list empty.
import { beforeAll, expect, it } from 'vitest'
import type { Emulator } from '../../src/emulator/index.js'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir, TOKEN } from '../e2e/helpers.js'
import { LIST_PATHS, startProxy } from '../e2e/proxy.js'

beforeAll(ensureBuilt, 120_000)

/** The emulator's lists two a page (count and page_total as it says them); page 2 of the target list (or of `shortList`) holds no result. */
function pageTwoOfTargetsEmpty(em: Emulator, shortList = '/targets/'): Promise<{ url: string }> {
  return startProxy(em.url, async (request, forward) => {
    if (request.method !== 'GET' || !(LIST_PATHS.has(request.path) || request.path === '/teams/')) return forward()
    const n = Number(new URL(request.url, 'http://x').searchParams.get('page') ?? '1')
    const upstream = await fetch(`${em.url}${request.path}?page=${n}&length=2`, { headers: { authorization: `JWT ${TOKEN}` } })
    const answer = { status: upstream.status, body: await upstream.text() }
    if (answer.status !== 200 || request.path !== shortList || n !== 2) return answer
    return { ...answer, body: JSON.stringify({ ...(JSON.parse(answer.body) as object), results: [] }) }
  })
}

// Page 1 of the targets (two a page) holds these two; page 2 the two that no file declares.
const DECLARED = {
  'targets.yaml': 'targets:\n  - id: 2DZkoZH8WMEM\n    fail_fast: false\n  - id: 5HnBvC3xZaQw\n    fail_fast: false\n',
  'agents.yaml': 'agents:\n  - id: 3kLx8Qy7Pb2m\n    name: dc-lisbon-agent\n  - id: 6NbVcX4zLkJh\n    name: dc-porto-agent\n  - id: 2PqRsT6uVwXy\n    name: cloud-fallback-agent\n',
}

it('drift --unmanaged does not report "No drift" when a target list page came back short', async () => {
  const em = await emulator()
  const proxy = await pageTwoOfTargetsEmpty(em)
  for (const format of ['text', 'json']) {
    const run = await cli(em, tempdir(DECLARED), ['drift', '.', '--unmanaged', '--format', format], { SCANSYNC_API_URL: proxy.url })
    expect(run.code, run.stdout + run.stderr).toBe(1)
    expect(run.stdout).not.toMatch(/No drift|"unmanaged"/)
    expect(run.stderr).toMatch(/GET \/targets\/: the target list's pages held 2 targets, fewer than the 4 its page 1 counted/)
  }
})

it('audit does not report a partial account as checked whole', async () => {
  const em = await emulator()
  const proxy = await pageTwoOfTargetsEmpty(em)
  const dir = tempdir({ ...DECLARED, 'policies.yaml': 'policies:\n  - name: every-target-labelled\n    kind: target\n    require: {required: [labels], properties: {labels: {minItems: 1}}}\n    level: warning\n' })
  const run = await cli(em, dir, ['audit', '.', '--format', 'json'], { SCANSYNC_API_URL: proxy.url })
  expect(run.code, run.stdout + run.stderr).toBe(1)
  expect(run.stdout).toBe('')
  expect(run.stderr).toMatch(/fewer than the 4 its page 1 counted/)
})

it('a list read whole that the service serves in full still reads as before', async () => {
  const em = await emulator()
  const run = await cli(em, tempdir(DECLARED), ['drift', '.', '--unmanaged', '--format', 'json'])
  expect(run.code, run.stderr).toBe(2)
  const unmanaged = (JSON.parse(run.stdout) as { unmanaged: Array<{ kind: string; id: string }> }).unmanaged
  expect(unmanaged.map((u) => u.id).sort()).toEqual(['7QwErTy2UiOp', '9XcVbN5mQwEr'])
})

it('a team list read only to check the team ids agents name is let go when it comes back short, not taken as whole', async () => {
  const em = await emulator()
  const proxy = await pageTwoOfTargetsEmpty(em, '/teams/')
  // Marketing (TmQ4Ww7Ee2Rr) is the third team: on page 2, served empty.
  const dir = tempdir({ 'agents.yaml': 'agents:\n  - id: 6NbVcX4zLkJh\n    teams: [TmQ4Ww7Ee2Rr]\n' })
  const run = await cli(em, dir, ['drift', '.', '--format', 'json'], { SCANSYNC_API_URL: proxy.url })
  expect(run.code, run.stdout + run.stderr).toBe(2)
  expect(run.stderr).not.toMatch(/no team has the id/)
  const changes = (JSON.parse(run.stdout) as { changes: Array<{ id: string; fields: Array<{ path: string; after: unknown }> }> }).changes
  expect(changes.map((c) => [c.id, c.fields.map((f) => [f.path, f.after])])).toEqual([['6NbVcX4zLkJh', [['teams', ['TmQ4Ww7Ee2Rr']]]]])
})
