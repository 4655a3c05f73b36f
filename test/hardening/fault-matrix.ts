// Issue 8, the fault matrix: plan and apply, end to end (in-process, against the emulator on
// 127.0.0.1), under each fault of fault-table.ts. For each: the defined outcome, the contract's
// exit code, a correct summary, and no write applied twice in effect. faults.test.ts runs a row
// of each kind on every `npm test`; faults.slow.test.ts runs them all (`npm run test:slow`).
import { expect, describe, it } from 'vitest'
import type { EmulatorSeed, RecordedRequest } from '../../src/emulator/index.js'
import { apply, emulator, plan, tempdir, writes } from '../e2e/helpers.js'
import { AGENTS, ASSETS, CHANGED, CHANGES, TARGETS, UNCHANGED, VICTIM, type FaultRow } from './fault-table.js'

const seed = (): EmulatorSeed => ({
  targets: TARGETS.map((id, i) => ({ id, site: { name: `old ${i}`, url: `https://t${i}.example.com/` }, labels: [{ name: 'keep' }] })),
  assets: ASSETS.map((id, i) => ({ id, name: `a${i}.example.com`, state: 'NEW', owners: [{ name: 'ops' }], comment: 'kept' })),
  agents: AGENTS.map((id, i) => ({ id, name: `agent-${i}`, teams: [] })),
})

/** The first CHANGED of each kind differ from the seed; the rest match it. */
const CONFIG = [
  'targets:',
  ...TARGETS.map((id, i) => `  - id: ${id}\n    site: {name: ${i < CHANGED.targets ? `new ${i}` : `old ${i}`}}`),
  'assets:',
  ...ASSETS.map((id, i) => `  - id: ${id}\n    state: ${i < CHANGED.assets ? 'ACTIVE' : 'NEW'}`),
  'agents:',
  ...AGENTS.map((id, i) => `  - id: ${id}\n    name: ${i < CHANGED.agents ? `renamed-${i}` : `agent-${i}`}`),
  '',
].join('\n')

const CHANGED_PATHS = [
  ...TARGETS.slice(0, CHANGED.targets).map((id) => `/targets/${id}/`),
  ...ASSETS.slice(0, CHANGED.assets).map((id) => `/discovery/assets/${id}/`),
  ...AGENTS.slice(0, CHANGED.agents).map((id) => `/scanning-agents/${id}/`),
].sort()

/** Retries fast and many (a share of 0.5 faulted requests must not exhaust them). */
const ENV = { SCANSYNC_MAX_ATTEMPTS: '4', SCANSYNC_BACKOFF_MS: '1', SCANSYNC_TIMEOUT_MS: '5000', SCANSYNC_RETRY_AFTER_LIMIT_MS: '5000' }
const STORM_ENV = { SCANSYNC_MAX_ATTEMPTS: '30' }

/** Faults that strike after the service handled the request: a write has landed all the same. */
const AFTER_HANDLING = new Set(['drop-mid', 'truncate', 'slow'])
const landed = (r: RecordedRequest) => r.status === 200 && (r.fault === undefined || AFTER_HANDLING.has(r.fault))

const STACK = /^\s+at .+:\d+:\d+\)?$/m

/** Faults at a share (a storm) need attempts to spare. */
const envOf = (row: FaultRow, faults: FaultRow['planFaults']) => ({ ...ENV, ...(faults.some((f) => f.share !== undefined) ? STORM_ENV : {}), ...row.env })

/** The fault matrix over `rows`: for each, plan and apply under the fault, then without it. */
export function describeFaultMatrix(rows: FaultRow[]): void {
  describe('fault matrix: plan and apply under each fault', () => {
    it.each(rows.map((row) => [row.fault, row] as const))('%s', async (_, row) => {
      const em = await emulator({ seed: seed() })
      const dir = tempdir({ 'config.yaml': CONFIG })
      const env = envOf(row, [])

      // plan
      em.setFaults(row.planFaults)
      const planned = await plan(em, dir, { detailedExitcode: true }, envOf(row, row.planFaults))
      expect(planned.err).not.toMatch(STACK)
      expect(planned.err).not.toContain('unexpected failure')
      if (row.plan.kind === 'converges') {
        expect(planned.err).toBe('')
        expect(planned.code).toBe(2)
        expect(planned.out).toContain(`Plan: ${CHANGES} to change, ${UNCHANGED} unchanged.`)
      } else {
        expect(planned.code).toBe(1)
        expect(planned.err).toMatch(row.plan.message)
      }
      if (row.planFaults.length > 0) expect(em.requests().some((r) => r.fault !== undefined), 'the fault struck').toBe(true)
      expect(writes(em)).toEqual([])

      // apply
      em.clearRequests()
      em.setFaults(row.applyFaults)
      const applied = await apply(em, dir, { format: 'text' }, envOf(row, row.applyFaults))
      expect(applied.err).not.toMatch(STACK)
      expect(applied.err).not.toContain('unexpected failure')
      expect(em.requests().some((r) => r.fault !== undefined), 'the fault struck').toBe(true)
      const log = writes(em)
      // Only changed resources are written, and every write of a resource carries the same body:
      // sent again after a lost answer, it sets the same values (applied once in effect).
      expect([...new Set(log.map((r) => r.path))].sort()).toEqual(CHANGED_PATHS)
      for (const path of CHANGED_PATHS) {
        const bodies = new Set(log.filter((r) => r.path === path).map((r) => JSON.stringify(r.body)))
        expect(bodies.size, path).toBe(1)
      }
      const clean = (path: string) => log.filter((r) => r.path === path && r.fault === undefined && r.status === 200).length
      if (row.apply.kind === 'converges') {
        expect(applied.err).toBe('')
        expect(applied.code).toBe(0)
        expect(applied.out).toContain(`Apply: ${CHANGES} applied, 0 failed, 0 not applied, ${UNCHANGED} unchanged.`)
        for (const path of CHANGED_PATHS) expect(clean(path), path).toBe(1)
        expect(log.some((r) => r.fault !== undefined), 'a write was faulted').toBe(true)
        // Where the fault struck after the service applied a write, that write landed twice, with
        // the same body (checked above) and so to the same end (checked below).
        if (row.applyFaults.some((f) => AFTER_HANDLING.has(f.type))) {
          expect(CHANGED_PATHS.some((path) => log.filter((r) => r.path === path && landed(r)).length >= 2)).toBe(true)
        }
      } else {
        expect(applied.code).toBe(1)
        expect(applied.out).toContain(`Apply: ${CHANGES - 1} applied, 1 failed, 0 not applied, ${UNCHANGED} unchanged.`)
        const failure = applied.out.split('\n').find((l) => l.includes('failed:'))
        expect(failure, applied.out).toBeDefined()
        expect(failure).toMatch(new RegExp(`^\\s*✗ ${VICTIM.words} "new 1" failed: `))
        expect(failure, failure).toMatch(row.apply.message)
        expect(failure).not.toMatch(/<html|JSON|Unexpected token/i)
        for (const path of CHANGED_PATHS.filter((p) => p !== VICTIM.path)) expect(clean(path), path).toBe(1)
        expect(log.filter((r) => r.path === VICTIM.path).some(landed)).toBe(row.apply.landed ?? false)
      }

      // Without the fault, a plan finds what is left (the failed change, unless it landed after all),
      // and another apply sends only that.
      em.setFaults([])
      em.clearRequests()
      const left = row.apply.kind === 'converges' || row.apply.landed ? 0 : 1
      const again = await plan(em, dir, { detailedExitcode: true, format: 'json' }, env)
      expect(again.code).toBe(left === 0 ? 0 : 2)
      expect(JSON.parse(again.out).summary).toEqual({ create: 0, change: left, unchanged: CHANGES + UNCHANGED - left })
      const last = await apply(em, dir, {}, env)
      expect(last.code).toBe(0)
      expect(writes(em).map((r) => r.path)).toEqual(left === 0 ? [] : [VICTIM.path])
      expect(em.get('target', TARGETS[0])).toMatchObject({ site: { name: 'new 0' }, labels: [expect.objectContaining({ name: 'keep' })] })
      expect(em.get('asset', ASSETS[0])).toMatchObject({ state: 'ACTIVE', comment: 'kept' })
      expect(em.get('target', TARGETS[5])).toMatchObject({ site: { name: 'old 5' } })
    })
  })
}
