// scansync audit checks every live resource (contract, "Policies"), reading the list pages. A
// target deleted in the web interface while the audit reads the list (pages are offsets into a
// list ordered by id) moves every later target one place up: the first target of the next page
// slips onto a page already read, and the audit never saw it, though it was live throughout.
// Nothing said so: the nightly report was missing a violation. The pages' `count` says the list
// moved; the list is then read again, a target met in either read counting once.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, exampleSeed, tempdir } from '../e2e/helpers.js'
import { startProxy } from '../e2e/proxy.js'
import type { EmulatorSeed } from '../../src/emulator/index.js'

const id = (n: number) => `Tg${String(n).padStart(10, '0')}`
const target = (n: number) => ({ id: id(n), site: { name: `Shop ${n}`, url: `https://shop-${n}.example.com/` } })

const RULE = `policies:
  - name: every-target-labelled
    kind: target
    require: {required: [labels]}
`

beforeAll(async () => {
  await ensureBuilt()
}, 120_000)

/**
 * `audit --format json` over `count` targets, target 10 deleted once page 1 is answered (pages 2
 * on then answer one place further on); the ids of the violations (every target breaks the rule).
 */
async function auditWithOneDeleted(count: number): Promise<{ code: number | null; stderr: string; ids: string[] }> {
  const seed: EmulatorSeed = { ...exampleSeed(), targets: Array.from({ length: count }, (_, n) => target(n)) }
  const em = await emulator({ seed })
  let deleted = false
  const proxy = await startProxy(em.url, async (request, forward) => {
    const answer = await forward()
    if (!deleted && request.path === '/targets/' && /[?&]page=1(&|$)/.test(request.url)) {
      deleted = true
      em.seed({ ...seed, targets: seed.targets!.filter((_, n) => n !== 10) })
    }
    return answer
  })
  const { code, stdout, stderr } = await cli(em, tempdir({ 'policies.yaml': RULE }), ['audit', '--format', 'json'], { SCANSYNC_API_URL: proxy.url })
  return { code, stderr, ids: stderr === '' ? (JSON.parse(stdout).violations as Array<{ id: string }>).map((v) => v.id) : [] }
}

describe('audit: a target deleted while the list is read', () => {
  it('every target live throughout is checked, the one after the page boundary included', async () => {
    const { code, stderr, ids } = await auditWithOneDeleted(250)
    expect(stderr).toBe('')
    // Every target but the deleted one was live from start to end: each is checked, once.
    for (let n = 0; n < 250; n++) if (n !== 10) expect(ids).toContain(id(n))
    expect(new Set(ids).size).toBe(ids.length)
    expect(code).toBe(2)
  })

  it('one deleted when the list had just one target more than two pages: page 3, gone, is not an error; every target left is checked', async () => {
    // 201 targets, 3 pages; with one deleted after page 1 the list has 2 pages, and page 3 answers 404 "Invalid page.".
    const { code, stderr, ids } = await auditWithOneDeleted(201)
    expect(stderr).toBe('')
    for (let n = 0; n < 201; n++) if (n !== 10) expect(ids).toContain(id(n))
    expect(code).toBe(2)
  })

  it('a page that answers 404 in every read: a clear error, exit 1, never a partial audit', async () => {
    const seed: EmulatorSeed = { ...exampleSeed(), targets: Array.from({ length: 250 }, (_, n) => target(n)) }
    const em = await emulator({ seed })
    const proxy = await startProxy(em.url, async (request, forward) =>
      request.path === '/targets/' && /[?&]page=3(&|$)/.test(request.url) ? { status: 404, body: '{"detail":"Invalid page."}' } : forward(),
    )
    const { code, stdout, stderr } = await cli(em, tempdir({ 'policies.yaml': RULE }), ['audit'], { SCANSYNC_API_URL: proxy.url })
    // Page 1 counts 250 in each read: not a shrink (test/live/review-r18-list-page-404.test.ts).
    expect(stderr).toBe('Error: GET /targets/: page 3 of the target list answered 404 in each of 3 reads, while page 1 counted 250 targets in each: the list did not shrink, the service (or a proxy before it) does not serve that page\n')
    expect(stdout).toBe('')
    expect(code).toBe(1)
  })
})
