#!/usr/bin/env node
// Runs the scansync CLI in this process and, when it exits, writes its CPU time and peak RSS
// as JSON to the file named by SCANSYNC_BENCH_USAGE (the benchmark's window into a child process).
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const usageFile = process.env.SCANSYNC_BENCH_USAGE
process.on('exit', () => {
  const usage = process.resourceUsage()
  if (usageFile) {
    writeFileSync(usageFile, JSON.stringify({ cpu_s: (usage.userCPUTime + usage.systemCPUTime) / 1e6, rss_mb: usage.maxRSS / 1024 }))
  }
})
const bin = fileURLToPath(new URL('../bin/run.js', import.meta.url))
process.argv = [process.argv[0], bin, ...process.argv.slice(2)]
await import(bin)
