// A V8 flag node was started with is left as given (bin/v8-flags.js, src/cli/memory.ts). Node and
// V8 take a flag's words joined by `_` as by `-` (`--semi_space_growth_factor=2`): such a flag was
// not recognised as given, and the run's own value replaced it.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../e2e/helpers.js'

const FLAGS = pathToFileURL(join(ROOT, 'bin', 'v8-flags.js')).href
const MEMORY = pathToFileURL(join(ROOT, 'dist', 'cli', 'memory.js')).href

/** The young generation's size in MB after 400,000 small objects were made and kept, under a run's tuning and node's `flag`. */
function youngGeneration(flag: string): number {
  const script = `
    const { tuneV8 } = await import(${JSON.stringify(FLAGS)}); tuneV8()
    const { getHeapSpaceStatistics } = await import('node:v8')
    const kept = []
    for (let i = 0; i < 400000; i++) kept.push({ id: 'resource-' + i, labels: [i, i + 1] })
    console.log(JSON.stringify({ kept: kept.length, size: getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size }))`
  const run = spawnSync(process.execPath, [flag, '--input-type=module', '-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH } })
  expect(run.status, run.stderr).toBe(0)
  const { kept, size } = JSON.parse(run.stdout) as { kept: number; size: number }
  expect(kept).toBe(400000)
  return size / (1024 * 1024)
}

describe('a V8 flag written with underscores', () => {
  it('--semi_space_growth_factor=2 is left as given by the run’s tuning: the young generation grows as the user asked', () => {
    expect(youngGeneration('--semi_space_growth_factor=2')).toBeGreaterThan(2)
  })

  it('--semi_space_growth_factor=4 is left as given by a large plan’s bound on its heap (src/cli/memory.ts sets no growth factor of its own)', () => {
    const script = `
      const { createRequire, syncBuiltinESMExports } = await import('node:module')
      const v8 = createRequire(import.meta.url)('node:v8')
      const set = []
      const original = v8.setFlagsFromString
      v8.setFlagsFromString = (flag) => (set.push(flag), original(flag))
      syncBuiltinESMExports()
      const { tuneV8 } = await import(${JSON.stringify(FLAGS)}); tuneV8()
      const { boundHeap } = await import(${JSON.stringify(MEMORY)})
      const release = boundHeap(320, 1.25, 16)
      globalThis.held = Array.from({ length: 600000 }, (_, i) => 'held-' + i)
      await new Promise((resolve) => setTimeout(resolve, 250))
      release()
      console.log(JSON.stringify(set.filter((flag) => flag.replaceAll('_', '-').startsWith('--semi-space-growth-factor'))))`
    const run = spawnSync(process.execPath, ['--semi_space_growth_factor=4', '--input-type=module', '-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH } })
    expect(run.status, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual([])
  })
})
