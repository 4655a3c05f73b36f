#!/usr/bin/env node
// validate + in-memory diff of 10,000 declared resources, no network: CPU seconds and peak RSS.
// Usage: node bench/diff-10k.js CONFIG_DIR LIVE_NDJSON  → prints {"cpu_s", "rss_mb", "changes"}
// The live state is one [kind, response] per line, read line by line as a plan reads page by page.
import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'
import { loadConfig } from '../dist/config/load.js'
import { buildPlan, liveKey } from '../dist/plan/build-plan.js'
import { emptyState, secretContext } from '../dist/secrets/state.js'
import { tuneV8 } from '../bin/v8-flags.js'

// V8 tuned as a run of the CLI tunes it (bin/run.js), before any of the work runs.
tuneV8()

const [configDir, liveFile] = process.argv.slice(2)
const live = new Map()
for await (const line of createInterface({ input: createReadStream(liveFile) })) {
  const [kind, body] = JSON.parse(line)
  live.set(liveKey(kind, body.id), body)
}

const start = process.cpuUsage()
const { config, diagnostics } = await loadConfig([configDir], { env: {} })
if (diagnostics.length > 0) throw new Error(`invalid fixture: ${diagnostics[0].message}`)
const { plan } = buildPlan(config.resources, live, secretContext(emptyState(), 'bench-token'))
const used = process.cpuUsage(start)
console.log(JSON.stringify({
  cpu_s: (used.user + used.system) / 1e6,
  rss_mb: process.resourceUsage().maxRSS / 1024,
  resources: config.resources.length,
  changes: plan.changes.length,
}))
