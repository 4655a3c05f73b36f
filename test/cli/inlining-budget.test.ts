// bin/v8-flags.js gives TurboFan a small inlining budget: compiling on helper threads that share two
// cores with the main thread cost more than the inlined code saved (docs/performance.md). V8 has no
// way to read a flag back, so the test asks V8 to trace its inlining decisions over a function
// larger than the budget and smaller than V8's own limits, called hot from another.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../e2e/helpers.js'

const FLAGS = pathToFileURL(join(ROOT, 'bin', 'v8-flags.js')).href

/** `node --trace-turbo-inlining` over a hot caller of `medium` (about 100 bytes of bytecode), with or without a run's tuning. */
function traceInlining(tuned: boolean): string {
  const script = `
    ${tuned ? `const { tuneV8 } = await import(${JSON.stringify(FLAGS)}); tuneV8()` : ''}
    function medium(a, b) { let s = 0; for (let i = 0; i < a.length; i++) { s += a[i] * b + (a[i] > 3 ? 1 : 2) - (i % 3 === 0 ? a[i] : b) } return s + a.length * 7 - b }
    function outer(a) { let t = 0; for (let j = 0; j < 10; j++) t += medium(a, j); return t }
    let x = 0
    const list = [1, 2, 3, 4, 5, 6]
    for (let k = 0; k < 200000; k++) x += outer(list)
    console.log('sum', x)`
  // TurboFan compiles on the main thread here, so that a loaded machine cannot end the loop before a compile does.
  const run = spawnSync(process.execPath, ['--trace-turbo-inlining', '--no-concurrent-recompilation', '--input-type=module', '-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH } })
  expect(run.status, run.stderr).toBe(0)
  return run.stdout
}

const inlinedMedium = /^Inlining .*<SharedFunctionInfo medium>} into /m

describe('TurboFan’s inlining budget', () => {
  it('lets V8 inline a function of about 100 bytes of bytecode into its hot caller by default (the control)', () => {
    const trace = traceInlining(false)
    expect(trace).toMatch(/^sum \d+$/m)
    expect(trace).toMatch(inlinedMedium)
  })

  it('keeps it out of its caller under a run’s tuning, while TurboFan still considers it', () => {
    const trace = traceInlining(true)
    expect(trace).toMatch(/^sum \d+$/m)
    expect(trace).toMatch(/^Considering .*<SharedFunctionInfo medium>} for inlining/m)
    expect(trace).not.toMatch(inlinedMedium)
  })
})
