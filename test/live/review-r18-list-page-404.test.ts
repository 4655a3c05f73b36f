// Review round 18 (the fixes of this round, attacked): a list page after page 1 that answers 404
// is taken for a list that shrank while it was read, and the list is read again.
// - When the page answered 404 in each of the three reads while page 1 counted the same resources
//   every time (a proxy or gateway that does not pass that page on), the nightly audit, drift
//   --unmanaged and import --all failed saying "the list shrank while it was read ... run again":
//   it had not shrunk, and running again fails the same way every night. The error now says the
//   list did not shrink and that the service (or a proxy) does not serve that page; a list whose
//   count did change between the reads is still said to have shrunk.
// - When page 1 of the second read answered 404 too (a gateway's moment of trouble), the read
//   stopped there and what the first read saw was taken as the whole list: audit checked 200 of
//   250 targets, drift --unmanaged and import --all listed 200, and said nothing. It is an error.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, exampleSeed, tempdir } from '../e2e/helpers.js'
import { startProxy, type ProxyHandler } from '../e2e/proxy.js'
import type { EmulatorSeed } from '../../src/emulator/index.js'

const target = (n: number) => ({ id: `Tg${String(n).padStart(10, '0')}`, site: { name: `Shop ${n}`, url: `https://shop-${n}.example.com/` } })
const PAGE_1 = /[?&]page=1(&|$)/
const PAGE_3 = /[?&]page=3(&|$)/
const POLICIES = 'policies:\n  - name: labelled\n    kind: target\n    require: {required: [labels]}\n'
const COMMANDS = [['audit'], ['drift', '--unmanaged'], ['import', '--all', '--kind', 'target']]

beforeAll(async () => {
  await ensureBuilt()
}, 120_000)

/** An account of 250 targets behind a proxy that answers the target list's pages as `handle` says; runs `args` through it. */
async function throughProxy(handle: ProxyHandler): Promise<(args: string[]) => ReturnType<typeof cli>> {
  const seed: EmulatorSeed = { ...exampleSeed(), targets: Array.from({ length: 250 }, (_, n) => target(n)) }
  const em = await emulator({ seed })
  const proxy = await startProxy(em.url, (request, forward) => (request.path === '/targets/' ? handle(request, forward) : forward()))
  return (args) => cli(em, tempdir({ 'policies.yaml': POLICIES }), args, { SCANSYNC_API_URL: proxy.url })
}

describe('a list page that answers 404 in every read', () => {
  it('with page 1 counting the same each time: not called a shrink, in audit, drift --unmanaged and import --all', { timeout: 60_000 }, async () => {
    const run = await throughProxy(async (request, forward) => (PAGE_3.test(request.url) ? { status: 404, body: '{"detail":"Not found."}' } : forward()))
    const expected =
      'Error: GET /targets/: page 3 of the target list answered 404 in each of 3 reads, while page 1 counted 250 targets in each: the list did not shrink, the service (or a proxy before it) does not serve that page\n'
    for (const args of COMMANDS) {
      const { code, stdout, stderr } = await run(args)
      expect(stderr, args.join(' ')).toBe(expected)
      expect([code, stdout]).toEqual([1, ''])
    }
  })

  it('with page 1 counting fewer at each read: still said to have shrunk', { timeout: 60_000 }, async () => {
    let reads = 0
    const run = await throughProxy(async (request, forward) => {
      if (PAGE_3.test(request.url)) return { status: 404, body: '{"detail":"Invalid page."}' }
      const answer = await forward()
      if (!PAGE_1.test(request.url)) return answer
      reads++
      return { ...answer, body: answer.body.replace('"count":250', `"count":${251 - reads}`) }
    })
    const { code, stderr } = await run(['audit'])
    expect(reads).toBe(3)
    expect(stderr).toBe('Error: GET /targets/: page 3 of the target list was gone when asked for: the list shrank while it was read, in each of 3 reads; run again\n')
    expect(code).toBe(1)
  })
})

describe('a list read again whose page 1 then answers 404', () => {
  it('is an error, never a partial audit, drift or import', { timeout: 60_000 }, async () => {
    let firstPages = 0
    const run = await throughProxy(async (request, forward) => {
      if (PAGE_3.test(request.url)) return { status: 404, body: '{"detail":"Invalid page."}' }
      if (PAGE_1.test(request.url) && firstPages++ % 2 === 1) return { status: 404, body: '{"detail":"Not found."}' }
      return forward()
    })
    for (const args of COMMANDS.map((a) => (a[0] === 'import' ? a : [...a, '--format', 'json']))) {
      const { code, stdout, stderr } = await run(args)
      expect(stderr, args.join(' ')).toBe('Error: GET /targets/: page 3 of the target list was gone when asked for, and page 1 answered 404 when the list was read again; run again\n')
      expect([code, stdout], args.join(' ')).toEqual([1, ''])
    }
  })
})
