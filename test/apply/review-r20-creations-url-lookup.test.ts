// Before the POSTs of an apply that creates targets, the fresh target list is checked for each
// creation's URL (src/apply/create.ts, freshCreations): the whole list was indexed again for every
// creation, so 4,000 creations among 8,000 targets walked the list 4,000 times (apply 4.2 s for
// 1,000 creations, 26 s for 4,000). Each live target's URL read is counted here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startEmulator, type Emulator } from '../../src/emulator/index.js'
import { freshCreations } from '../../src/apply/create.js'
import type { PlannedResource } from '../../src/plan/staleness.js'
import type { DesiredResource, JsonObject } from '../../src/core/types.js'

const LIVE = 400
const CREATIONS = 200
let emulator: Emulator
beforeAll(async () => {
  emulator = await startEmulator({ seed: { targets: Array.from({ length: LIVE }, (_, n) => ({ id: `Tg${String(n).padStart(8, '0')}`, site: { name: `Shop ${n}`, url: `https://shop-${n}.example.com/` } })) } })
})
afterAll(() => emulator.close())

describe('the targets to create, checked against a fresh list', () => {
  it('reads each live target\'s URL a bounded number of times, not once per creation', async () => {
    let urlReads = 0
    const live = Array.from({ length: LIVE }, (_, n) => {
      const body = structuredClone(emulator.get('target', `Tg${String(n).padStart(8, '0')}`)) as JsonObject
      const site = body.site as JsonObject
      const url = site.url
      Object.defineProperty(site, 'url', { enumerable: true, get: () => (urlReads++, url) })
      return body
    })
    const client = { request: async () => ({ count: LIVE, page_total: 1, page: 1, length: LIVE, results: live }) }
    const source = { file: 'targets.yaml', line: 1, column: 3 }
    const planned = Array.from({ length: CREATIONS }, (_, n): PlannedResource => {
      const url = n % 2 === 0 ? `https://new-${n}.example.com/` : `https://shop-${n}.example.com/`
      const desired: DesiredResource = { kind: 'target', id: '', naturalKey: { field: 'site.url', value: url } as DesiredResource['naturalKey'], fields: { site: { name: `New ${n}`, url } }, templates: new Map(), source, locate: () => source }
      return { desired, change: {} as PlannedResource['change'], fingerprint: '' }
    })
    const freshness = await freshCreations(planned, client as never)
    expect(freshness.ready).toHaveLength(CREATIONS / 2)
    expect(freshness.stale).toHaveLength(CREATIONS / 2)
    // Once per creation: 80,000 reads; indexed once: a few per target (reading the list checks them too).
    expect(urlReads).toBeLessThan(LIVE * 5)
  })
})
