#!/usr/bin/env node
// npm run bench:policies: the benchmark's policy row (issue 15: the rules add under 5% to the
// plan's wall time). The plan of bench/run.js (2,000 targets, 2,000 assets, 200 agents against
// the emulator at 20 ms latency) run as users run it, without and with 20 rules, in alternating
// pairs; each run's wall time and CPU time (user + system of the plan's process, every thread,
// read by bench/cpu-probe.js: steadier than wall time on a shared machine). Medians, and the
// median of each pair's own difference. Plus, in-process: the rules alone over the 4,200
// resources in their after-apply shape, and checking and compiling the rules in a fresh process.
// And the rules' own cost as a plan pays it, in a fresh process: checking and compiling them, then
// one pass over the 4,200 resources while the code is cold (CPU time: what the plan's wall time
// grows by on a machine whose cores the plan keeps busy).
// Prints a table and writes bench/policies-results.json. BENCH_RUNS (default 15) pairs.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startEmulator } from '../dist/emulator/index.js'
import { loadConfig } from '../dist/config/load.js'
import { KINDS } from '../dist/resources/index.js'
import { afterApply } from '../dist/plan/after-apply.js'
import { PolicyChecker } from '../dist/plan/policies.js'
import { Redaction } from '../dist/core/redaction.js'
import { compare } from '../dist/plan/build-plan.js'
import { emptyState, secretContext } from '../dist/secrets/state.js'
import { liveSecrets } from '../dist/secrets/redact.js'
import { buildAccount, LATENCY_MS, listAll, PARALLELISM, runsOr, SIZES, writeConfig } from './fixtures.js'
import { RULES } from './policy-rules.js'
import jsYaml from 'js-yaml'
import { tuneV8 } from '../bin/v8-flags.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const RUNS = runsOr(15)
const TOKEN = 'bench-token'
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const round = (value, digits = 3) => Number(value.toFixed(digits))
const log = (text) => process.stderr.write(text + '\n')

/** One run of the CLI as users run it: its wall time and its CPU time (user + system, read by bench/cpu-probe.js). */
function scansync(args, env) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const probe = join(root, 'bench', 'cpu-probe.js')
    const child = spawn(process.execPath, ['--import', probe, join(root, 'bin', 'run.js'), ...args], { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env }, stdio: ['ignore', 'ignore', 'pipe', 'pipe'] })
    let stderr = ''
    let cpu = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.stdio[3].on('data', (chunk) => (cpu += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, wall_s: Number(process.hrtime.bigint() - started) / 1e9, cpu_s: Number(cpu) / 1000, stderr }))
  })
}

/** Seconds a fresh process takes to load and compile the rules in `dir` (the import of the loader excluded). */
function loadInChild(dir) {
  const script = `const { loadConfig } = await import(${JSON.stringify(join(root, 'dist', 'config', 'load.js'))}); const t = performance.now(); const r = await loadConfig([${JSON.stringify(dir)}], { env: {} }); if (r.policies.length === 0) process.exit(1); console.log((performance.now() - t) / 1000)`
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (chunk) => (out += chunk))
    child.on('close', (code) => (code === 0 ? resolve(Number(out)) : reject(new Error('loading the rules failed'))))
  })
}

/**
 * In a fresh process (this script with --cold): CPU milliseconds to check and compile the rules,
 * then to run them once over every resource in its after-apply shape, cold, as a plan does.
 */
function coldInChild(configDir, rulesDir, url) {
  return new Promise((resolve, reject) => {
    // --expose-gc: the garbage of reading the files and the answers is collected before the timing, not during it.
    const child = spawn(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--cold', configDir, rulesDir, url], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (chunk) => (out += chunk))
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error('the cold run of the rules failed'))))
  })
}

async function cold([configDir, rulesDir, url]) {
  const { config } = await loadConfig([configDir], { env: {}, cwd: root })
  const lives = new Map()
  for (const [name, kind] of Object.entries(KINDS)) for (const item of await listAll(url, kind.listPath, TOKEN)) lives.set(`${name}/${item.id}`, item)
  const projected = config.resources.map((r) => KINDS[r.kind].project(lives.get(`${r.kind}/${r.id}`)))
  // What the plan's comparison found for each (it runs with or without rules): nothing to change, or something.
  const secrets = secretContext(emptyState(), TOKEN)
  const unchanged = config.resources.map((r) => compare(r, lives.get(`${r.kind}/${r.id}`), secrets).fields.length === 0)
  // The secrets each live resource holds: the plan finds them for its output step, rules or not.
  const held = config.resources.map((r, i) => liveSecrets(KINDS[r.kind], projected[i]))
  const cpu = () => {
    const { user, system } = process.cpuUsage()
    return (user + system) / 1000
  }
  globalThis.gc?.()
  const started = cpu()
  const loaded = await loadConfig([rulesDir], { env: {}, cwd: root })
  const compiled = cpu()
  const checker = new PolicyChecker(loaded.policies, { holdsSecret: new Redaction(TOKEN).holds })
  // As a plan checks them (src/cli/run/prepare-plan.ts).
  config.resources.forEach((resource, i) => checker.checkAfterApply(KINDS[resource.kind], resource.id, resource, projected[i], { unchanged: unchanged[i], held: held[i] }))
  const evaluated = cpu()
  console.log(JSON.stringify({ compile_ms: compiled - started, first_pass_ms: evaluated - compiled, violations: checker.violations().length }))
}

async function sequence(n, run) {
  const results = []
  for (let i = 0; i < n; i++) results.push(await run())
  return results
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'scansync-bench-policies-'))
  const account = buildAccount(SIZES)
  const configDir = join(work, 'config')
  writeConfig(configDir, account.config)
  const rulesDir = join(work, 'rules')
  mkdirSync(rulesDir)
  // Block style, as people write rules (and as the loader's fast path reads them).
  writeFileSync(join(rulesDir, 'policies.yaml'), jsYaml.dump({ policies: RULES }, { flowLevel: -1, lineWidth: 200 }))
  log(`Fixture: ${account.declared} declared resources, ${RULES.length} rules; latency ${LATENCY_MS} ms; ${RUNS} runs each.`)

  // The rules alone, in-process: compile once, then every resource in its after-apply shape.
  const loaded = await loadConfig([configDir, rulesDir], { env: {}, cwd: root })
  if (loaded.diagnostics.length > 0) throw new Error(`fixture invalid: ${loaded.diagnostics[0].message}`)
  // The service's whole answers (some hundred fields a target), as the plan reads them.
  const emulator = await startEmulator({ seed: account.seed, token: TOKEN, latencyMs: LATENCY_MS })
  const lives = new Map()
  for (const [name, kind] of Object.entries(KINDS)) for (const item of await listAll(emulator.url, kind.listPath, TOKEN)) lives.set(`${name}/${item.id}`, item)
  // Projected once, outside the timing: the plan projects every answer to compare it, rules or not.
  const projected = loaded.config.resources.map((r) => KINDS[r.kind].project(lives.get(`${r.kind}/${r.id}`)))
  /** Seconds to build each resource's after-apply shape (only what the rules read, or whole) and run the rules on it. */
  const evaluate = (whole) => {
    const started = performance.now()
    const checker = new PolicyChecker(loaded.policies)
    loaded.config.resources.forEach((resource, i) => {
      const kind = KINDS[resource.kind]
      checker.check(resource.kind, resource.id, afterApply(kind, resource.id, resource.fields, projected[i], whole ? true : checker.reads(resource.kind)), resource)
    })
    return { seconds: (performance.now() - started) / 1000, violations: checker.violations().length }
  }
  const evaluations = []
  const wholeShapes = []
  let violations = 0
  for (let i = 0; i < RUNS; i++) {
    const read = evaluate(false)
    const whole = evaluate(true)
    if (read.violations !== whole.violations) throw new Error(`the rules found ${read.violations} violations over what they read, ${whole.violations} over whole shapes`)
    violations = read.violations
    evaluations.push(read.seconds)
    wholeShapes.push(whole.seconds)
  }
  // Loading and compiling the rules in a fresh process, as a plan does once.
  const rulesLoad = median(await sequence(RUNS, () => loadInChild(rulesDir)))
  const colds = await sequence(RUNS, () => coldInChild(configDir, rulesDir, emulator.url))
  if (colds.some((c) => c.violations !== violations)) throw new Error('a cold run of the rules found other violations')
  const coldCompile = median(colds.map((c) => c.compile_ms))
  const coldPass = median(colds.map((c) => c.first_pass_ms))
  const coldTotal = median(colds.map((c) => c.compile_ms + c.first_pass_ms))

  const env = { SCANSYNC_API_URL: emulator.url, SCANSYNC_API_TOKEN: TOKEN, SCANSYNC_PARALLELISM: String(PARALLELISM) }
  const state = ['--state', join(work, 'state.json')]
  const without = []
  const withRules = []
  const loadBefore = loadavg()[0]
  // Alternating pairs, so that a busy moment of a shared machine weighs on both sides alike; each
  // pair in the other order than the one before, so that neither side is always the second run.
  for (let i = 0; i < RUNS; i++) {
    const sides = [[without, [configDir]], [withRules, [configDir, rulesDir]]]
    for (const [runs, paths] of i % 2 === 0 ? sides : sides.reverse()) {
      const run = await scansync(['plan', ...paths, '--format', 'json', ...state], env)
      if (run.code !== 0) throw new Error(`plan failed (exit ${run.code}): ${run.stderr.slice(0, 500)}`)
      runs.push(run)
    }
  }
  const loadAfter = loadavg()[0]
  await emulator.close()

  const plain = median(without.map((r) => r.wall_s))
  const ruled = median(withRules.map((r) => r.wall_s))
  const plainCpu = median(without.map((r) => r.cpu_s))
  const ruledCpu = median(withRules.map((r) => r.cpu_s))
  // Each pair's own difference: less sensitive to the machine's load drifting between pairs.
  const paired = median(without.map((r, i) => ((withRules[i].wall_s - r.wall_s) / r.wall_s) * 100))
  const pairedCpu = median(without.map((r, i) => ((withRules[i].cpu_s - r.cpu_s) / r.cpu_s) * 100))
  const results = {
    plan_without_rules_s: round(plain),
    plan_with_20_rules_s: round(ruled),
    added_percent: round(((ruled - plain) / plain) * 100, 2),
    added_percent_median_of_pairs: round(paired, 2),
    plan_cpu_without_rules_s: round(plainCpu),
    plan_cpu_with_20_rules_s: round(ruledCpu),
    cpu_added_percent: round(((ruledCpu - plainCpu) / plainCpu) * 100, 2),
    cpu_added_percent_median_of_pairs: round(pairedCpu, 2),
    rules_evaluation_s: round(median(evaluations), 4),
    rules_evaluation_percent_of_plan: round((median(evaluations) / plain) * 100, 2),
    rules_evaluation_whole_shapes_s: round(median(wholeShapes), 4),
    rules_load_and_compile_s: round(rulesLoad, 4),
    // The rules' own CPU in a plan's process: checking and compiling them, then the first (cold) pass.
    rules_cold_compile_cpu_ms: round(coldCompile, 1),
    rules_cold_first_pass_cpu_ms: round(coldPass, 1),
    rules_cold_total_cpu_ms: round(coldTotal, 1),
    rules_cold_total_percent_of_plan_wall: round((coldTotal / 1000 / plain) * 100, 2),
    violations,
    runs: {
      wall_without_s: without.map((r) => round(r.wall_s)),
      wall_with_s: withRules.map((r) => round(r.wall_s)),
      cpu_without_s: without.map((r) => round(r.cpu_s)),
      cpu_with_s: withRules.map((r) => round(r.cpu_s)),
    },
    machine: { cpus: cpus().length, node: process.version, load_average_1m: [round(loadBefore, 2), round(loadAfter, 2)], latency_ms: LATENCY_MS, runs: RUNS, resources: account.declared, rules: RULES.length },
  }
  writeFileSync(join(root, 'bench', 'policies-results.json'), JSON.stringify(results, null, 2) + '\n')
  const signed = (value) => `${value >= 0 ? '+' : ''}${value}%`
  console.log('| row | wall s | CPU s |')
  console.log('|---|---|---|')
  console.log(`| plan (4,200), no rules | ${results.plan_without_rules_s} | ${results.plan_cpu_without_rules_s} |`)
  console.log(`| plan (4,200), 20 rules | ${results.plan_with_20_rules_s} (${signed(results.added_percent)}; pairs ${signed(results.added_percent_median_of_pairs)}) | ${results.plan_cpu_with_20_rules_s} (${signed(results.cpu_added_percent)}; pairs ${signed(results.cpu_added_percent_median_of_pairs)}) |`)
  console.log(`| the 20 rules alone over 4,200 resources (in-process, warm) | ${results.rules_evaluation_s} (${results.rules_evaluation_percent_of_plan}% of the plan) | |`)
  console.log(`| the same, building whole after-apply shapes (before: every live field copied) | ${results.rules_evaluation_whole_shapes_s} | |`)
  console.log(`| checking and compiling the 20 rules (fresh process) | ${results.rules_load_and_compile_s} | |`)
  console.log(`| the rules as a plan pays for them (fresh process): checking and compiling, then the first, cold pass | | ${results.rules_cold_compile_cpu_ms} + ${results.rules_cold_first_pass_cpu_ms} = ${results.rules_cold_total_cpu_ms} ms (${results.rules_cold_total_percent_of_plan_wall}% of the plan's wall time) |`)
  log(`Load average (1 min) before and after the plans: ${results.machine.load_average_1m.join(', ')} on ${results.machine.cpus} CPUs.`)
  rmSync(work, { recursive: true, force: true })
}

// The cold run is a plan's process: V8 tuned as bin/run.js tunes it.
if (process.argv[2] === '--cold') tuneV8()
await (process.argv[2] === '--cold' ? cold(process.argv.slice(3)) : main())
