#!/usr/bin/env node
// npm run bench: plan and apply thousands of resources against the emulator with a fixed 20 ms
// latency, next to a naive one-request-at-a-time baseline measured in the same run. Prints a table
// and writes bench/results.json. See docs/performance.md for the cost model.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Agent, request } from 'undici'
import { startEmulator } from '../dist/emulator/index.js'
import { KINDS } from '../dist/resources/index.js'
import { buildAccount, LATENCY_MS, PARALLELISM, runsOr, SIZES, warmEmulator, writeConfig } from './fixtures.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const RUNS = runsOr(3)
// --large adds plans of 20,000 and 100,000 resources (minutes, so not in the default run);
// --only-large runs just those; --no-baseline skips the naive baseline (for quick comparisons).
const FLAGS = new Set(process.argv.slice(2))
const LARGE = FLAGS.has('--large') || FLAGS.has('--only-large')
const LARGE_SIZES = [
  { targets: 9500, assets: 9500, agents: 1000 },
  { targets: 47500, assets: 47500, agents: 5000 },
]
const TOKEN = 'bench-token'

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const round = (value, digits = 3) => Number(value.toFixed(digits))
const work = mkdtempSync(join(tmpdir(), 'scansync-bench-'))
const resultsFile = join(root, 'bench', 'results.json')
/** The last results: rows a partial run (--no-baseline, no --large) does not measure are kept from them. */
const previous = (() => {
  try {
    return JSON.parse(readFileSync(resultsFile, 'utf8'))
  } catch {
    return {}
  }
})()
const log = (text) => process.stderr.write(text + '\n')

/** Runs the CLI as users do; returns wall seconds, exit code, and the child's CPU and peak RSS. */
function scansync(args, env) {
  const usageFile = join(work, `usage-${Math.random().toString(36).slice(2)}.json`)
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    // In the emulator's clock (epoch ms, same process): the first request's delay is measured from here.
    const spawnedMs = performance.timeOrigin + performance.now()
    const child = spawn(process.execPath, ['--require', join(root, 'bench', 'measure.cjs'), join(root, 'bin', 'run.js'), ...args], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', SCANSYNC_BENCH_USAGE: usageFile, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => {
      const wall = Number(process.hrtime.bigint() - started) / 1e9
      const usage = JSON.parse(readFileSync(usageFile, 'utf8'))
      resolve({ code, wall_s: wall, stderr, spawnedMs, ...usage })
    })
  })
}

/** Milliseconds from the spawn of `node -e 0` to its exit, with the environment scansync's runs get. */
function nodeAlone() {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const child = spawn(process.execPath, ['-e', '0'], { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' }, stdio: 'ignore' })
    child.on('error', reject)
    child.on('close', () => resolve(Number(process.hrtime.bigint() - started) / 1e6))
  })
}

function summarize(runs, requests, floor) {
  return {
    wall_s: round(median(runs.map((r) => r.wall_s))),
    requests,
    floor_s: round(floor),
    ratio_to_floor: round(median(runs.map((r) => r.wall_s)) / floor, 2),
    cpu_s: round(median(runs.map((r) => r.cpu_s))),
    rss_mb: round(median(runs.map((r) => r.rss_mb)), 1),
  }
}

const isWrite = (method) => method === 'PATCH' || method === 'PUT' || method === 'POST' || method === 'DELETE'
const countWrites = (log) => log.filter((r) => isWrite(r.method)).length

/**
 * From the emulator's arrival and answer times: how long after the spawn the first request
 * arrived, and the average number of requests in flight from the first read's arrival to the
 * last read's answer (the time reads are outstanding), which is at most the parallelism.
 */
function timingsOf(timings, spawnedMs) {
  const reads = timings.filter((t) => t.method === 'GET')
  const writes = timings.filter((t) => isWrite(t.method))
  const span = (list) => {
    if (list.length === 0) return { busy: 0, wall_s: 0 }
    const start = Math.min(...list.map((t) => t.arrivedMs))
    const end = Math.max(...list.map((t) => t.answeredMs ?? t.arrivedMs))
    const inFlight = list.reduce((sum, t) => sum + ((t.answeredMs ?? t.arrivedMs) - t.arrivedMs), 0)
    return { busy: end > start ? inFlight / (end - start) : 0, wall_s: (end - start) / 1000 }
  }
  return {
    first_request_ms: timings.length > 0 ? Math.min(...timings.map((t) => t.arrivedMs)) - spawnedMs : NaN,
    busy_slots: span(reads).busy,
    reads_wall_s: span(reads).wall_s,
    writes_wall_s: span(writes).wall_s,
  }
}

async function main() {
  if (FLAGS.has('--only-large')) {
    writeFileSync(resultsFile, JSON.stringify({ ...previous, large: await largePlans() }, null, 2) + '\n')
    return
  }
  const account = buildAccount(SIZES)
  const configDir = join(work, 'config')
  writeConfig(configDir, account.config)
  log(`Fixture: ${account.declared} declared resources, ${account.changed} differing; latency ${LATENCY_MS} ms; parallelism ${PARALLELISM}.`)

  const emulator = await startEmulator({ seed: account.seed, token: TOKEN, latencyMs: LATENCY_MS })
  const env = { SCANSYNC_API_URL: emulator.url, SCANSYNC_API_TOKEN: TOKEN, SCANSYNC_PARALLELISM: String(PARALLELISM) }
  const floorOf = (requests) => (requests * LATENCY_MS) / 1000 / PARALLELISM
  const results = {}
  const listPaths = Object.values(KINDS).map((kind) => kind.listPath)
  await warmEmulator(emulator.url, TOKEN, listPaths)

  // plan: the whole process, start to exit.
  const planRuns = []
  let planRequests = 0
  for (let i = 0; i < RUNS; i++) {
    emulator.clearRequests()
    const run = await scansync(['plan', configDir, '--format', 'json', '--state', join(work, 'state.json')], env)
    if (run.code !== 0) throw new Error(`plan failed (exit ${run.code}): ${run.stderr}`)
    planRequests = emulator.requests().length
    Object.assign(run, timingsOf(emulator.timings(), run.spawnedMs))
    planRuns.push(run)
    log(`plan run ${i + 1}: ${run.wall_s.toFixed(3)} s, ${planRequests} requests, first at ${run.first_request_ms.toFixed(0)} ms, ${run.busy_slots.toFixed(2)} slots busy over ${(run.reads_wall_s * 1000).toFixed(0)} ms of reads, CPU ${run.cpu_s.toFixed(3)} s`)
  }
  results.plan = {
    ...summarize(planRuns, planRequests, floorOf(planRequests)),
    first_request_ms: round(median(planRuns.map((r) => r.first_request_ms)), 1),
    busy_slots_avg: round(median(planRuns.map((r) => r.busy_slots)), 2),
    reads_wall_s: round(median(planRuns.map((r) => r.reads_wall_s))),
  }

  // apply of the differing resources, re-seeding between runs.
  const applyRuns = []
  let applyRequests = 0
  let applyWrites = 0
  for (let i = 0; i < RUNS; i++) {
    emulator.seed(account.seed)
    await warmEmulator(emulator.url, TOKEN, listPaths)
    emulator.clearRequests()
    const run = await scansync(['apply', configDir, '--auto-approve', '--format', 'json', '--state', join(work, 'state.json')], env)
    if (run.code !== 0) throw new Error(`apply failed (exit ${run.code}): ${run.stderr}`)
    applyRequests = emulator.requests().length
    applyWrites = countWrites(emulator.requests())
    Object.assign(run, timingsOf(emulator.timings(), run.spawnedMs))
    applyRuns.push(run)
    log(`apply run ${i + 1}: ${run.wall_s.toFixed(3)} s, ${applyRequests} requests, ${applyWrites} writes over ${(run.writes_wall_s * 1000).toFixed(0)} ms, CPU ${run.cpu_s.toFixed(3)} s`)
  }
  // The writes' floor: the writes alone at full parallelism. The target is
  // apply ≤ plan + 1.15 × this floor + 50 ms (the plan must be whole before the first write).
  const writesFloor = floorOf(applyWrites)
  results.apply = {
    ...summarize(applyRuns, applyRequests, floorOf(applyRequests)),
    writes: applyWrites,
    changes: account.changed,
    writes_floor_s: round(writesFloor),
    writes_wall_s: round(median(applyRuns.map((r) => r.writes_wall_s))),
    target_s: round(results.plan.wall_s + 1.15 * writesFloor + 0.05),
  }

  // start-up
  const startups = []
  for (let i = 0; i < 10; i++) startups.push((await scansync(['--version'], {})).wall_s * 1000)
  // Node's own start-up, spawned the same way: the part of `--version` no code of ours can shorten
  // (the host's, which has moved between rounds far more than scansync's part).
  const floors = []
  for (let i = 0; i < 10; i++) floors.push(await nodeAlone())
  results.startup = { median_ms: round(median(startups), 1), node_floor_ms: round(median(floors), 1) }
  log(`startup: ${results.startup.median_ms} ms (node alone: ${results.startup.node_floor_ms} ms)`)

  // validate + in-memory diff of 10,000 resources, no network.
  results.validate_diff_10k = await diff10k()
  log(`validate + diff 10k: ${results.validate_diff_10k.cpu_s} s CPU, ${results.validate_diff_10k.rss_mb} MB`)

  // The naive baseline: one GET per declared resource in sequence, then one write per change in sequence.
  if (FLAGS.has('--no-baseline')) {
    results.baseline = previous.baseline
  } else {
    emulator.seed(account.seed)
    emulator.clearRequests()
    results.baseline = await naiveBaseline(emulator.url, account)
    log(`baseline: ${results.baseline.wall_s} s, ${results.baseline.requests} requests`)
  }
  if (results.baseline) results.plan.speedup_vs_baseline_reads = round(results.baseline.read_wall_s / results.plan.wall_s, 1)

  results.machine = { cpus: cpus().length, node: process.version, latency_ms: LATENCY_MS, parallelism: PARALLELISM, runs: RUNS, resources: account.declared, changes: account.changed }
  await emulator.close()
  results.large = LARGE ? await largePlans() : previous.large
  writeFileSync(resultsFile, JSON.stringify(results, null, 2) + '\n')
  printTable(results)
}

/** Plans of 20,000 and 100,000 resources: how wall time and memory scale with the account. */
async function largePlans() {
  const rows = []
  for (const sizes of LARGE_SIZES) {
    const account = buildAccount(sizes)
    const dir = join(work, `config-${account.declared}`)
    writeConfig(dir, account.config)
    const emulator = await startEmulator({ seed: account.seed, token: TOKEN, latencyMs: LATENCY_MS })
    await warmEmulator(emulator.url, TOKEN, Object.values(KINDS).map((kind) => kind.listPath))
    const env = { SCANSYNC_API_URL: emulator.url, SCANSYNC_API_TOKEN: TOKEN, SCANSYNC_PARALLELISM: String(PARALLELISM) }
    const runs = []
    let requests = 0
    for (let i = 0; i < RUNS; i++) {
      emulator.clearRequests()
      const run = await scansync(['plan', dir, '--format', 'json', '--state', join(work, 'state.json')], env)
      if (run.code !== 0) throw new Error(`plan of ${account.declared} failed (exit ${run.code}): ${run.stderr}`)
      requests = emulator.requests().length
      Object.assign(run, timingsOf(emulator.timings(), run.spawnedMs))
      runs.push(run)
      log(`plan of ${account.declared}, run ${i + 1}: ${run.wall_s.toFixed(3)} s, ${run.rss_mb.toFixed(0)} MB, ${requests} requests, ${run.busy_slots.toFixed(2)} slots busy, CPU ${run.cpu_s.toFixed(2)} s`)
    }
    await emulator.close()
    const wall = median(runs.map((r) => r.wall_s))
    rows.push({
      resources: account.declared,
      wall_s: round(wall),
      rss_mb: round(Math.max(...runs.map((r) => r.rss_mb)), 1),
      requests,
      cpu_s: round(median(runs.map((r) => r.cpu_s))),
      wall_per_resource_us: round((wall / account.declared) * 1e6, 1),
    })
  }
  return rows
}

async function diff10k() {
  const account = buildAccount({ targets: 4500, assets: 4500, agents: 1000 })
  const dir = join(work, 'config-10k')
  writeConfig(dir, account.config)
  // The live state as the service would answer it, through the emulator's shaping.
  const emulator = await startEmulator({ seed: account.seed, token: TOKEN })
  const live = []
  for (const [list, kind] of [['targets', 'target'], ['assets', 'asset'], ['agents', 'agent']]) {
    for (const item of account.seed[list]) live.push([kind, emulator.get(kind, item.id)])
  }
  await emulator.close()
  const liveFile = join(work, 'live-10k.ndjson')
  writeFileSync(liveFile, live.map((entry) => JSON.stringify(entry)).join('\n') + '\n')
  const runs = []
  for (let i = 0; i < RUNS; i++) {
    const output = await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [join(root, 'bench', 'diff-10k.js'), dir, liveFile], { stdio: ['ignore', 'pipe', 'inherit'] })
      let out = ''
      child.stdout.on('data', (chunk) => (out += chunk))
      child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`diff-10k failed (${code})`))))
    })
    runs.push(output)
  }
  return { cpu_s: round(median(runs.map((r) => r.cpu_s))), rss_mb: round(median(runs.map((r) => r.rss_mb)), 1), resources: runs[0].resources, changes: runs[0].changes }
}

async function naiveBaseline(url, account) {
  const dispatcher = new Agent({ connections: 1 })
  const headers = { authorization: `JWT ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json' }
  const call = async (method, path, body) => {
    const response = await request(url + path, { method, headers, body: body && JSON.stringify(body), dispatcher })
    const text = await response.body.text()
    if (response.statusCode >= 300) throw new Error(`${method} ${path}: ${response.statusCode} ${text}`)
    return JSON.parse(text)
  }
  const started = process.hrtime.bigint()
  let requests = 0
  const declared = [
    ...account.config.targets.map((t) => ['target', t]),
    ...account.config.assets.map((a) => ['asset', a]),
    ...account.config.agents.map((a) => ['agent', a]),
  ]
  const differing = []
  for (const [kind, item] of declared) {
    const live = await call('GET', KINDS[kind].itemPath(item.id))
    requests++
    // As a hand-written script would: compare the one field the fixture changes.
    const stale = kind === 'target' ? live.site.name !== item.site.name : kind === 'asset' ? live.state !== item.state : live.name !== item.name
    if (stale) differing.push([kind, item, live])
  }
  const readWall = Number(process.hrtime.bigint() - started) / 1e9
  for (const [kind, item, live] of differing) {
    if (kind === 'target') await call('PATCH', KINDS.target.itemPath(item.id), { site: { name: item.site.name } })
    else if (kind === 'asset') await call('PUT', KINDS.asset.itemPath(item.id), { name: live.name, state: item.state, owners: live.owners.map((o) => ({ name: o.name })), comment: live.comment, labels: live.labels.map((l) => ({ name: l.name })) })
    else await call('PATCH', KINDS.agent.itemPath(item.id), { name: item.name })
    requests++
  }
  const wall = Number(process.hrtime.bigint() - started) / 1e9
  await dispatcher.close()
  return { wall_s: round(wall), read_wall_s: round(readWall), requests, writes: differing.length }
}

function printTable(r) {
  const rows = [
    ['', 'wall s', 'requests', 'floor s', 'x floor', 'CPU s', 'RSS MB'],
    ['plan (4,200)', r.plan.wall_s, r.plan.requests, r.plan.floor_s, r.plan.ratio_to_floor, r.plan.cpu_s, r.plan.rss_mb],
    ['apply (420)', r.apply.wall_s, r.apply.requests, r.apply.floor_s, r.apply.ratio_to_floor, r.apply.cpu_s, r.apply.rss_mb],
    ['naive baseline', r.baseline.wall_s, r.baseline.requests, '', '', '', ''],
    ['validate+diff 10k', '', 0, '', '', r.validate_diff_10k.cpu_s, r.validate_diff_10k.rss_mb],
    ['--version', round(r.startup.median_ms / 1000), '', r.startup.node_floor_ms === undefined ? '' : round(r.startup.node_floor_ms / 1000), '', '', ''],
  ]
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => String(row[c]).length)))
  for (const row of rows) console.log(row.map((cell, c) => String(cell).padStart(widths[c])).join('  '))
  console.log(`plan vs naive reads: ${r.plan.speedup_vs_baseline_reads}x faster; apply writes: ${r.apply.writes} for ${r.apply.changes} changed resources`)
  console.log(`plan: first request ${r.plan.first_request_ms} ms after the spawn; ${r.plan.busy_slots_avg} of ${PARALLELISM} slots busy while reading`)
  console.log(`apply: writes floor ${r.apply.writes_floor_s} s, writes took ${r.apply.writes_wall_s} s; target plan + 1.15 × floor + 50 ms = ${r.apply.target_s} s`)
  for (const row of r.large ?? []) console.log(`plan of ${row.resources}: ${row.wall_s} s (${row.wall_per_resource_us} µs a resource), ${row.rss_mb} MB peak RSS, ${row.requests} requests`)
}

try {
  await main()
} finally {
  rmSync(work, { recursive: true, force: true })
}
