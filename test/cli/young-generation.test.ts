// bin/v8-flags.js keeps V8's young generation at the size it starts with: on the benchmark's machine
// each page of memory touched for the first time costs a page fault of 13–16 µs, and a young
// generation grown to 16 MB a semi-space touches some 8,000 more pages in a plan of 4,200 resources
// than the scavenges of a small one cost (docs/performance.md, twenty-third round); a plan's bound
// on its heap (src/cli/memory.ts) lets it grow again once the plan holds more. The tests keep many
// objects alive, which makes V8 grow the young generation by default, and read its size back, or
// record the flags set. A flag node was given is left as given, in either spelling: node and V8
// take a flag's words joined by `_` as by `-` (`--semi_space_growth_factor=2`), which the tuning
// once did not see, replacing the user's value with its own.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../e2e/helpers.js'

const FLAGS = pathToFileURL(join(ROOT, 'bin', 'v8-flags.js')).href
const MEMORY = pathToFileURL(join(ROOT, 'dist', 'cli', 'memory.js')).href

/** Runs `script` as an ES module in `node NODE_FLAGS`, after a run's tuning when `tuned`; its output parsed as JSON. */
function inNode(script: string, tuned: boolean, nodeFlags: string[] = []): unknown {
  const tuning = tuned ? `const { tuneV8 } = await import(${JSON.stringify(FLAGS)}); tuneV8()\n` : ''
  const run = spawnSync(process.execPath, [...nodeFlags, '--input-type=module', '-e', tuning + script], { encoding: 'utf8', env: { PATH: process.env.PATH } })
  expect(run.status, run.stderr).toBe(0)
  return JSON.parse(run.stdout)
}

/** A plan's bound on its heap told that a run holding more than 16 MB is a large one, held `held` strings for a few of its checks. */
const boundWhileHolding = (held: number) => `
  const { boundHeap } = await import(${JSON.stringify(MEMORY)})
  const release = boundHeap(320, 1.25, 16)
  globalThis.held = Array.from({ length: ${held} }, (_, i) => 'held-' + i)
  await new Promise((resolve) => setTimeout(resolve, 250))
  release()`

/** The young generation's size in MB after 400,000 small objects were made and kept; under a plan's bound holding `heldFirst` strings first, when given. */
function youngGenerationAfterSurvivors(tuned: boolean, heldFirst?: number, nodeFlags?: string[]): number {
  const { kept, size } = inNode(`
    const { getHeapSpaceStatistics } = await import('node:v8')
    ${heldFirst === undefined ? '' : boundWhileHolding(heldFirst)}
    const kept = []
    for (let i = 0; i < 400000; i++) kept.push({ id: 'resource-' + i, labels: [i, i + 1] })
    const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')
    console.log(JSON.stringify({ kept: kept.length, size: young.space_size }))`, tuned, nodeFlags) as { kept: number; size: number }
  expect(kept).toBe(400000)
  return size / (1024 * 1024)
}

/** The young generation's growth factors V8 was given while a large plan's bound ran (600,000 strings held). */
function growthFactorsSetByTheBound(tuned: boolean, nodeFlags?: string[]): string[] {
  return inNode(`
    const { createRequire, syncBuiltinESMExports } = await import('node:module')
    const v8 = createRequire(import.meta.url)('node:v8')
    const set = []
    const original = v8.setFlagsFromString
    v8.setFlagsFromString = (flag) => (set.push(flag), original(flag))
    syncBuiltinESMExports()
    ${boundWhileHolding(600000)}
    console.log(JSON.stringify(set.filter((flag) => flag.replaceAll('_', '-').startsWith('--semi-space-growth-factor'))))`, tuned, nodeFlags) as string[]
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

  it('stays at its first size under a plan’s bound while the plan holds less', () => {
    expect(youngGenerationAfterSurvivors(true, 1000)).toBeLessThanOrEqual(2)
  })

  it('is left to V8 by a large plan’s bound where bin/v8-flags.js did not keep it small (a V8 it does not know): no flag is set', () => {
    expect(growthFactorsSetByTheBound(false)).toEqual([])
  })

  it('grows as the user asked with --semi_space_growth_factor=2 (underscores), which the run’s tuning leaves as given', () => {
    expect(youngGenerationAfterSurvivors(true, undefined, ['--semi_space_growth_factor=2'])).toBeGreaterThan(2)
  })

  it('keeps --semi_space_growth_factor=4 as given under a large plan’s bound too (src/cli/memory.ts sets no factor of its own)', () => {
    expect(growthFactorsSetByTheBound(true, ['--semi_space_growth_factor=4'])).toEqual([])
  })
})
