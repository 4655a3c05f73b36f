// Preloaded (`node --import`) into a benchmarked process: on exit, writes the process's CPU time
// (user + system, every thread) in milliseconds to file descriptor 3, which the benchmark reads.
import { writeSync } from 'node:fs'

process.on('exit', () => {
  const { user, system } = process.cpuUsage()
  try {
    writeSync(3, `${(user + system) / 1000}\n`)
  } catch {
    // Run without the benchmark's pipe: nothing to report to.
  }
})
