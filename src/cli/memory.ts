import { getHeapStatistics, setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/**
 * V8 lets garbage pile up towards its heap limit (gigabytes on a large machine) before it collects
 * the old generation. Reading a big account makes much short-lived garbage (every page of answers)
 * that outlives the young generation while other pages are in flight, so a plan of 100,000
 * resources peaked over 1 GB of RSS while holding about 250 MB.
 *
 * This collects when the heap has grown to `growth` times what the last collection left (and past
 * `floorMb`): the peak stays within a fixed factor of what is really held, and each forced
 * collection frees at least a fifth of the heap, so their number grows with the garbage made, not
 * with time. (A fixed ceiling collected every 100 ms once the live data alone passed it: a plan
 * of 100,000 resources then spent most of its time in full collections.) Runs below the floor
 * never pay for it.
 */
export function boundHeap(floorMb = 320, growth = 1.25, youngGrowsAboveMb = 64): () => void {
  setFlagsFromString('--expose-gc')
  const collect = runInNewContext('gc') as () => void
  const floor = floorMb * 1024 * 1024
  let threshold = floor
  const letYoungGrow = youngGenerationGrowsAbove(youngGrowsAboveMb)
  letYoungGrow()
  const timer = setInterval(() => {
    letYoungGrow()
    if (getHeapStatistics().used_heap_size <= threshold) return
    collect()
    threshold = Math.max(floor, getHeapStatistics().used_heap_size * growth)
  }, 100)
  timer.unref()
  return () => clearInterval(timer)
}

/**
 * bin/v8-flags.js keeps V8's young generation at its first size: a larger one is memory touched
 * for the first time, dear on some machines, and a plan of a few thousand resources gained 10%.
 * A run that holds more than `mb` (a plan of some 10,000 resources and up) makes so many
 * survivors that small scavenges cost more than the faults: past it, the young generation grows
 * as V8 grows it by default (a plan of 20,000 was 14–20% slower without, in alternations). Only
 * where bin/v8-flags.js set the factor (its key of globalThis): a factor node was given is left
 * as given, and a V8 not known to have the flag is not asked for it.
 */
function youngGenerationGrowsAbove(mb: number): () => void {
  let grows = (globalThis as Record<symbol, unknown>)[Symbol.for('scansync.youngGenerationKept')] !== true
  return () => {
    if (grows || getHeapStatistics().used_heap_size <= mb * 1024 * 1024) return
    grows = true
    setFlagsFromString('--semi-space-growth-factor=2')
  }
}
