#!/usr/bin/env node
// npm run bench:policies: the benchmark's policy row. The plan of bench/run.js (2,000 targets,
// 2,000 assets, 200 agents against the emulator at 20 ms latency) run as users run it, with and
// without 20 rules, alternating; plus the rules alone, in-process, over the 4,200 resources in
// their after-apply shape. The bar: the rules add under 5% to the plan's wall time.
// Prints a table and writes bench/policies-results.json. BENCH_RUNS (default 5) runs of each.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startEmulator } from '../dist/emulator/index.js'
import { loadConfig } from '../dist/config/load.js'
import { KINDS } from '../dist/resources/index.js'
import { afterApply, PolicyChecker } from '../dist/plan/policies.js'
import { buildAccount, writeConfig } from './fixtures.js'
import jsYaml from 'js-yaml'

const root = fileURLToPath(new URL('..', import.meta.url))
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20)
const RUNS = Number(process.env.BENCH_RUNS ?? 5)
const SIZES = { targets: 2000, assets: 2000, agents: 200 }
const TOKEN = 'bench-token'
const work = mkdtempSync(join(tmpdir(), 'scansync-bench-policies-'))
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const round = (value, digits = 3) => Number(value.toFixed(digits))
const log = (text) => process.stderr.write(text + '\n')

const labelled = (name) => ({ required: ['labels'], properties: { labels: { contains: { required: ['name'], properties: { name: { const: name } } } } } })

/** Twenty rules of the kinds a security team writes: `when`s on labels and types, requires on nested fields. */
const RULES = [
  { name: 'production-has-blackout', kind: 'target', when: labelled('production'), require: { required: ['blackout_period'], properties: { blackout_period: { required: ['begin', 'cease', 'weekdays'] } } } },
  { name: 'production-blackout-enabled', kind: 'target', when: labelled('production'), require: { properties: { blackout_period: { properties: { enabled: { const: true } } } } } },
  { name: 'pci-report-type', kind: 'target', when: labelled('pci'), require: { required: ['report_type'], properties: { report_type: { enum: ['pci', 'pci_v3_2_1', 'pci4', 'pci_v4_0_1'] } } } },
  { name: 'target-has-label', kind: 'target', require: { required: ['labels'], properties: { labels: { type: 'array', minItems: 1 } } } },
  { name: 'target-has-name', kind: 'target', require: { required: ['site'], properties: { site: { required: ['name', 'url'], properties: { name: { minLength: 3 } } } } } },
  { name: 'https-only', kind: 'target', require: { properties: { site: { properties: { url: { pattern: '^https://' } } } } } },
  { name: 'api-login', kind: 'target', when: { required: ['type'], properties: { type: { const: 'api' } } }, require: { required: ['api_scan_settings'] } },
  { name: 'label-colours', kind: 'target', require: { properties: { labels: { items: { properties: { color: { pattern: '^(#[0-9a-fA-F]{6}|[a-z]+)$' } } } } } } },
  { name: 'team-label', kind: 'target', require: { properties: { labels: { contains: { properties: { name: { pattern: '^team-' } } } } } } },
  { name: 'blackout-timezone', kind: 'target', when: { required: ['blackout_period'] }, require: { properties: { blackout_period: { required: ['timezone'] } } } },
  { name: 'asset-owned', kind: 'asset', require: { required: ['owners'], properties: { owners: { type: 'array', minItems: 1 } } } },
  { name: 'asset-state', kind: 'asset', require: { required: ['state'], properties: { state: { enum: ['NEW', 'ACTIVE', 'ARCHIVED', 'HIDDEN'] } } } },
  { name: 'archived-commented', kind: 'asset', when: { properties: { state: { const: 'ARCHIVED' } } }, require: { required: ['comment'] } },
  { name: 'asset-owner-is-team', kind: 'asset', require: { properties: { owners: { items: { properties: { name: { pattern: '^team-' } } } } } } },
  { name: 'asset-comment-length', kind: 'asset', require: { properties: { comment: { maxLength: 500 } } } },
  { name: 'asset-labelled', kind: 'asset', when: { properties: { state: { const: 'ACTIVE' } } }, require: { required: ['labels'] } },
  { name: 'agent-in-team', kind: 'agent', require: { required: ['teams'], properties: { teams: { type: 'array', minItems: 1 } } } },
  { name: 'agent-two-teams', kind: 'agent', require: { properties: { teams: { maxItems: 5 } } } },
  { name: 'agent-named', kind: 'agent', require: { required: ['name'], properties: { name: { pattern: '^agent-' } } } },
  { name: 'agent-not-fallback', kind: 'agent', require: { properties: { fallback: { const: false } } } },
].map((rule) => ({ description: rule.name.replaceAll('-', ' '), level: 'warning', ...rule }))

function scansync(args, env) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const child = spawn(process.execPath, [join(root, 'bin', 'run.js'), ...args], { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env }, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, wall_s: Number(process.hrtime.bigint() - started) / 1e9, stderr }))
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

async function sequence(n, run) {
  const results = []
  for (let i = 0; i < n; i++) results.push(await run())
  return results
}

async function main() {
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
  const lives = new Map(account.seed.targets.map((t) => [`target/${t.id}`, t]).concat(account.seed.assets.map((a) => [`asset/${a.id}`, a]), account.seed.agents.map((a) => [`agent/${a.id}`, a])))
  const evaluations = []
  let violations = 0
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now()
    const checker = new PolicyChecker(loaded.policies)
    for (const resource of loaded.config.resources) {
      const kind = KINDS[resource.kind]
      checker.check(resource.kind, resource.id, afterApply(kind, resource.id, resource.fields, kind.project(lives.get(`${resource.kind}/${resource.id}`))), resource)
    }
    violations = checker.violations().length
    evaluations.push((performance.now() - started) / 1000)
  }
  // Loading and compiling the rules in a fresh process, as a plan does once (Ajv loaded only then).
  const rulesLoad = median(await sequence(RUNS, () => loadInChild(rulesDir)))

  const emulator = await startEmulator({ seed: account.seed, token: TOKEN, latencyMs: LATENCY_MS })
  const env = { SCANSYNC_API_URL: emulator.url, SCANSYNC_API_TOKEN: TOKEN, SCANSYNC_PARALLELISM: '8' }
  const state = ['--state', join(work, 'state.json')]
  const without = []
  const withRules = []
  for (let i = 0; i < RUNS; i++) {
    for (const [runs, paths] of [[without, [configDir]], [withRules, [configDir, rulesDir]]]) {
      const run = await scansync(['plan', ...paths, '--format', 'json', ...state], env)
      if (run.code !== 0) throw new Error(`plan failed (exit ${run.code}): ${run.stderr.slice(0, 500)}`)
      runs.push(run.wall_s)
    }
  }
  await emulator.close()

  const plain = median(without)
  const ruled = median(withRules)
  const results = {
    plan_without_rules_s: round(plain),
    plan_with_20_rules_s: round(ruled),
    added_percent: round(((ruled - plain) / plain) * 100, 2),
    rules_evaluation_s: round(median(evaluations), 4),
    rules_evaluation_percent_of_plan: round((median(evaluations) / plain) * 100, 2),
    rules_load_and_compile_s: round(rulesLoad, 4),
    rules_total_percent_of_plan: round(((median(evaluations) + rulesLoad) / plain) * 100, 2),
    violations,
    machine: { cpus: cpus().length, node: process.version, latency_ms: LATENCY_MS, runs: RUNS, resources: account.declared, rules: RULES.length },
  }
  writeFileSync(join(root, 'bench', 'policies-results.json'), JSON.stringify(results, null, 2) + '\n')
  console.log('| row | wall s |')
  console.log('|---|---|')
  console.log(`| plan (4,200), no rules | ${results.plan_without_rules_s} |`)
  console.log(`| plan (4,200), 20 rules | ${results.plan_with_20_rules_s} (${results.added_percent >= 0 ? '+' : ''}${results.added_percent}%) |`)
  console.log(`| the 20 rules alone over 4,200 resources (in-process) | ${results.rules_evaluation_s} (${results.rules_evaluation_percent_of_plan}% of the plan) |`)
  console.log(`| loading Ajv and compiling the 20 rules (fresh process) | ${results.rules_load_and_compile_s} |`)
  console.log(`| evaluation + compilation | ${round(median(evaluations) + rulesLoad)} (${results.rules_total_percent_of_plan}% of the plan) |`)
  rmSync(work, { recursive: true, force: true })
}

await main()
