// Preloaded (`node --require bench/measure.cjs bin/run.js …`) into a run of the CLI the benchmark
// starts: when it exits, writes its CPU time and peak RSS as JSON to the file named by
// SCANSYNC_BENCH_USAGE (the benchmark's window into a child process). A preload, not a wrapper: the
// CLI starts as npm's link starts it, bin/run.js as the main module (a wrapper importing it made
// Node load its loader of ES modules, and scan the CommonJS entry for its exports, which no run
// of a user's does).
'use strict'
const { writeFileSync } = require('node:fs')

const usageFile = process.env.SCANSYNC_BENCH_USAGE
process.on('exit', () => {
  const usage = process.resourceUsage()
  if (usageFile) writeFileSync(usageFile, JSON.stringify({ cpu_s: (usage.userCPUTime + usage.systemCPUTime) / 1e6, rss_mb: usage.maxRSS / 1024 }))
})
