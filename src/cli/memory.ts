import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/**
 * V8 lets garbage pile up towards its heap limit (gigabytes on a large machine) before it collects
 * the old generation. Reading a big account makes much short-lived garbage (every page of answers)
 * that outlives the young generation while other pages are in flight, so a plan of 100,000
 * resources peaked over 1 GB of RSS while holding about 250 MB. This collects whenever the heap
 * passes `ceilingMb`, which keeps the peak near what is really held. Runs never pay for it below
 * the ceiling.
 */
export function boundHeap(ceilingMb = 320): () => void {
  setFlagsFromString('--expose-gc')
  const collect = runInNewContext('gc') as () => void
  const ceiling = ceilingMb * 1024 * 1024
  const timer = setInterval(() => {
    if (process.memoryUsage().heapUsed > ceiling) collect()
  }, 100)
  timer.unref()
  return () => clearInterval(timer)
}
