// Review round 18 (the fixes of this round, attacked): a list page gone (404) while the list is
// read makes it be read again; when page 1 of that second read answered 404 too (a gateway's
// moment of trouble), the read stopped there and what the first read saw was taken as the whole
// list: audit checked 200 of 250 targets, drift --unmanaged and import --all listed 200, and said
// nothing (exit as if complete). It is an error, as a page gone in every read is.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, exampleSeed, tempdir } from '../e2e/helpers.js'
import { startProxy } from '../e2e/proxy.js'
import type { EmulatorSeed } from '../../src/emulator/index.js'

const target = (n: number) => ({ id: `Tg${String(n).padStart(10, '0')}`, site: { name: `Shop ${n}`, url: `https://shop-${n}.example.com/` } })
const POLICIES = 'policies:\n  - name: labelled\n    kind: target\n    require: {required: [labels]}\n'

beforeAll(async () => {
  await ensureBuilt()
}, 120_000)

describe('a list read again whose page 1 then answers 404', () => {
  it('is an error, never a partial audit, drift or import', { timeout: 60_000 }, async () => {
    const seed: EmulatorSeed = { ...exampleSeed(), targets: Array.from({ length: 250 }, (_, n) => target(n)) }
    const em = await emulator({ seed })
    let firstPages = 0
    const proxy = await startProxy(em.url, async (request, forward) => {
      if (request.path !== '/targets/') return forward()
      if (/[?&]page=3(&|$)/.test(request.url)) return { status: 404, body: '{"detail":"Invalid page."}' }
      if (/[?&]page=1(&|$)/.test(request.url) && firstPages++ % 2 === 1) return { status: 404, body: '{"detail":"Not found."}' }
      return forward()
    })
    for (const args of [['audit', '--format', 'json'], ['drift', '--unmanaged', '--format', 'json'], ['import', '--all', '--kind', 'target']]) {
      const { code, stdout, stderr } = await cli(em, tempdir({ 'policies.yaml': POLICIES }), args, { SCANSYNC_API_URL: proxy.url })
      expect(stderr, args.join(' ')).toBe('Error: GET /targets/: page 3 of the target list was gone when asked for, and page 1 answered 404 when the list was read again; run again\n')
      expect([code, stdout], args.join(' ')).toEqual([1, ''])
    }
  })
})
