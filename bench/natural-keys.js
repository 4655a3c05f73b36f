#!/usr/bin/env node
// npm run bench:natural-keys: the plan of bench/run.js (4,200 declared resources, 20 ms latency,
// parallelism 8) with 200 targets declared without id (190 found by their URL, 10 to create) and
// 20 references by name (10 agents' teams, 10 targets' scanning agents). Adds its row to
// bench/results.json under `plan_natural_keys` (the other rows are kept as they are).
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startEmulator } from '../dist/emulator/index.js'
import { buildAccount, LATENCY_MS, PARALLELISM, runsOr, SIZES, writeConfig } from './fixtures.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const RUNS = runsOr(3)
// BENCH_WITHOUT_ID=0 BENCH_NAME_REFERENCES=0 gives the plain plan on the same machine, for comparison (not saved).
const WITHOUT_ID = Number(process.env.BENCH_WITHOUT_ID ?? 200)
const TO_CREATE = Math.min(10, WITHOUT_ID)
const NAME_REFERENCES = Number(process.env.BENCH_NAME_REFERENCES ?? 20)
const PLAN_TARGET_S = 2.0
const TOKEN = 'bench-token'
const work = mkdtempSync(join(tmpdir(), 'scansync-bench-keys-'))
const log = (text) => process.stderr.write(text + '\n')
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const round = (value, digits = 3) => Number(value.toFixed(digits))

/** The bench account, with targets known by URL, some new, and references by name. */
function account() {
  const built = buildAccount(SIZES)
  const { config, seed } = built
  const teamName = new Map(seed.teams.map((team) => [team.id, team.name]))
  const agentName = new Map(seed.agents.map((agent) => [agent.id, agent.name]))
  for (let n = 0; n < WITHOUT_ID; n++) {
    const target = config.targets[n]
    delete target.id
    // The last few are new applications: no live target has their URL.
    if (n >= WITHOUT_ID - TO_CREATE) target.site = { ...target.site, name: `New shop ${n}`, url: `https://new-${n}.example.com/` }
  }
  const half = NAME_REFERENCES / 2
  for (let n = 0; n < half; n++) {
    const agent = config.agents[n]
    // A differing agent's live name is another: its teams are named, the agent keeps its id.
    agent.teams = agent.teams.map((id) => ({ name: teamName.get(id) }))
    const target = config.targets[WITHOUT_ID + n]
    target.scanning_agent = { name: agentName.get(target.scanning_agent.id) }
  }
  return built
}

function scansync(args, env) {
  const usageFile = join(work, `usage-${Math.random().toString(36).slice(2)}.json`)
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const child = spawn(process.execPath, ['--require', join(root, 'bench', 'measure.cjs'), join(root, 'bin', 'run.js'), ...args], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', SCANSYNC_BENCH_USAGE: usageFile, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => {
      const wall_s = Number(process.hrtime.bigint() - started) / 1e9
      resolve({ code, wall_s, stdout, stderr, ...JSON.parse(readFileSync(usageFile, 'utf8')) })
    })
  })
}

/** The median of RUNS plans of `config` against an emulator seeded with `seed`. */
async function measurePlan(config, seed, label) {
  const configDir = join(work, label)
  writeConfig(configDir, config)
  const emulator = await startEmulator({ seed, token: TOKEN, latencyMs: LATENCY_MS })
  const env = { SCANSYNC_API_URL: emulator.url, SCANSYNC_API_TOKEN: TOKEN, SCANSYNC_PARALLELISM: String(PARALLELISM) }
  const runs = []
  let requests = 0
  let summary
  try {
    for (let i = 0; i < RUNS; i++) {
      emulator.clearRequests()
      const run = await scansync(['plan', configDir, '--format', 'json', '--state', join(work, 'state.json')], env)
      if (run.code !== 0) throw new Error(`plan failed (exit ${run.code}): ${run.stderr}`)
      requests = emulator.requests().length
      summary = JSON.parse(run.stdout).summary
      runs.push(run)
      log(`${label} plan run ${i + 1}: ${run.wall_s.toFixed(3)} s, ${requests} requests, ${JSON.stringify(summary)}`)
    }
  } finally {
    await emulator.close()
  }
  return { wall: median(runs.map((r) => r.wall_s)), requests, summary, cpu: median(runs.map((r) => r.cpu_s)), rss: median(runs.map((r) => r.rss_mb)) }
}

async function main() {
  // The same plan with every id declared, measured in the same run: the machine's load moves both.
  const plain = await measurePlan(buildAccount(SIZES).config, buildAccount(SIZES).seed, 'plain')
  const built = account()
  const keyed = await measurePlan(built.config, built.seed, 'natural-keys')
  const floor = (keyed.requests * LATENCY_MS) / 1000 / PARALLELISM
  const row = {
    resources: built.declared,
    without_id: WITHOUT_ID,
    to_create: TO_CREATE,
    name_references: NAME_REFERENCES,
    wall_s: round(keyed.wall),
    requests: keyed.requests,
    floor_s: round(floor),
    ratio_to_floor: round(keyed.wall / floor, 2),
    cpu_s: round(keyed.cpu),
    rss_mb: round(keyed.rss, 1),
    summary: keyed.summary,
    plain_plan_same_run: { wall_s: round(plain.wall), requests: plain.requests, cpu_s: round(plain.cpu) },
    target_s: PLAN_TARGET_S,
    meets_target: keyed.wall <= PLAN_TARGET_S,
  }
  if (WITHOUT_ID > 0 || NAME_REFERENCES > 0) {
    const file = join(root, 'bench', 'results.json')
    const results = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}
    results.plan_natural_keys = row
    writeFileSync(file, JSON.stringify(results, null, 2) + '\n')
  }
  console.log(
    `plan (4,200; ${WITHOUT_ID} without id, ${NAME_REFERENCES} names): ${row.wall_s} s, ${row.requests} requests, floor ${row.floor_s} s (${row.ratio_to_floor}x), CPU ${row.cpu_s} s, RSS ${row.rss_mb} MB; ` +
      `the same plan with ids: ${row.plain_plan_same_run.wall_s} s, ${plain.requests} requests; target <= ${PLAN_TARGET_S} s ${row.meets_target ? 'met' : 'NOT met'}`,
  )
}

try {
  await main()
} finally {
  rmSync(work, { recursive: true, force: true })
}
