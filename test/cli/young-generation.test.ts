// bin/v8-flags.js keeps V8's young generation at the size it starts with: on the benchmark's machine
// each page of memory touched for the first time costs a page fault of 13–16 µs, and a young
// generation grown to 16 MB a semi-space touches some 8,000 more pages in a plan of 4,200 resources
// than the scavenges of a small one cost (docs/performance.md, twenty-third round). The test keeps
// many objects alive, which makes V8 grow the young generation by default, and reads its size back.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../e2e/helpers.js'

const FLAGS = pathToFileURL(join(ROOT, 'bin', 'v8-flags.js')).href
const MEMORY = pathToFileURL(join(ROOT, 'dist', 'cli', 'memory.js')).href

/**
 * The young generation's size in MB after 400,000 small objects were made and kept, with or without
 * a run's tuning; under a plan's bound on its heap (src/cli/memory.ts, told that a run holding more
 * than 16 MB is a large one) when `heldFirst` strings are held before.
 */
function youngGenerationAfterSurvivors(tuned: boolean, heldFirst?: number): number {
  const script = `
    ${tuned ? `const { tuneV8 } = await import(${JSON.stringify(FLAGS)}); tuneV8()` : ''}
    const { getHeapSpaceStatistics } = await import('node:v8')
    ${heldFirst === undefined ? '' : `
    const { boundHeap } = await import(${JSON.stringify(MEMORY)})
    const release = boundHeap(320, 1.25, 16)
    globalThis.held = Array.from({ length: ${heldFirst} }, (_, i) => 'held-' + i)
    await new Promise((resolve) => setTimeout(resolve, 250))
    release()`}
    const kept = []
    for (let i = 0; i < 400000; i++) kept.push({ id: 'resource-' + i, labels: [i, i + 1] })
    const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')
    console.log(JSON.stringify({ kept: kept.length, size: young.space_size }))`
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH } })
  expect(run.status, run.stderr).toBe(0)
  const { kept, size } = JSON.parse(run.stdout) as { kept: number; size: number }
  expect(kept).toBe(400000)
  return size / (1024 * 1024)
}

describe('the young generation', () => {
  it('grows beyond its first size when most objects survive, by default (the control)', () => {
    expect(youngGenerationAfterSurvivors(false)).toBeGreaterThan(2)
  })

  it('stays at its first size under a run’s tuning', () => {
    expect(youngGenerationAfterSurvivors(true)).toBeLessThanOrEqual(2)
  })

  it('grows again, under a run’s tuning, once a plan holds more than a large run’s share of memory (many survivors: small scavenges cost more than the faults)', () => {
    expect(youngGenerationAfterSurvivors(true, 600000)).toBeGreaterThan(2)
  })

  it('is left to V8 by a large plan’s bound where bin/v8-flags.js did not keep it small (a V8 it does not know): no flag is set', () => {
    const script = `
      const { createRequire, syncBuiltinESMExports } = await import('node:module')
      const v8 = createRequire(import.meta.url)('node:v8')
      const set = []
      const original = v8.setFlagsFromString
      v8.setFlagsFromString = (flag) => (set.push(flag), original(flag))
      syncBuiltinESMExports()
      const { boundHeap } = await import(${JSON.stringify(MEMORY)})
      const release = boundHeap(320, 1.25, 16)
      globalThis.held = Array.from({ length: 600000 }, (_, i) => 'held-' + i)
      await new Promise((resolve) => setTimeout(resolve, 250))
      release()
      console.log(JSON.stringify(set.filter((flag) => flag.startsWith('--semi-space-growth-factor'))))`
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH } })
    expect(run.status, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual([])
  })

  it('stays at its first size under a plan’s bound while the plan holds less', () => {
    expect(youngGenerationAfterSurvivors(true, 1000)).toBeLessThanOrEqual(2)
  })
})
