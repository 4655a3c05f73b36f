#!/usr/bin/env node
// npm run demo: the embedded emulator with the example seed, then plan, apply, drift (clean),
// a change made "by hand" in the emulator, and drift again (found); then the organisation rules
// of examples/policies: a plan that breaks one (exit 1), the YAML fixed, the plan clean; then a new
// application onboarded from YAML (a target created, found by its URL afterwards). Exits 0 when
// every step behaved as expected.
import { spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync as readText, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
if (!existsSync(join(root, 'dist', 'emulator', 'index.js'))) {
  console.error('scansync is not built yet: run npm install (or npm run build) first.')
  process.exit(1)
}
const { startEmulator } = await import('../dist/emulator/index.js')
const { readFileSync } = await import('node:fs')

// NO_COLOR wins, then FORCE_COLOR, then whether stdout is a terminal (as scansync itself decides).
const colour = process.env.NO_COLOR ? false : process.env.FORCE_COLOR !== undefined ? !['0', 'false'].includes(process.env.FORCE_COLOR) : Boolean(process.stdout.isTTY)
const bold = (text) => (colour ? `\x1b[1m${text}\x1b[22m` : text)
const seed = JSON.parse(readFileSync(join(root, 'examples', 'emulator-seed.json'), 'utf8'))
const token = 'demo-token'
const emulator = await startEmulator({ seed, token, obfuscate: true })
const work = mkdtempSync(join(tmpdir(), 'scansync-demo-'))
const env = {
  ...process.env,
  SCANSYNC_API_URL: emulator.url,
  SCANSYNC_API_TOKEN: token,
}

function scansync(args) {
  return new Promise((resolve) => {
    console.log(`$ scansync ${args.join(' ')}`)
    const child = spawn(process.execPath, [join(root, 'bin', 'run.js'), ...args], { cwd: root, env, stdio: 'inherit' })
    child.on('close', (code) => resolve(code))
  })
}

const config = 'examples/config'
const state = ['--state', join(work, 'state.json')]
const fixed = join(work, 'config')
const steps = [
  { title: 'Plan: what differs between examples/config and the service', args: ['plan', config, ...state], expect: 0 },
  { title: 'Apply the plan', args: ['apply', config, '--auto-approve', ...state], expect: 0 },
  { title: 'Drift check right after the apply: nothing to report', args: ['drift', config, ...state], expect: 0 },
  {
    title: 'Someone renames the shop target in the web interface…',
    run: () => {
      emulator.mutate('target', '2DZkoZH8WMEM', { site: { name: 'Shop (renamed by hand)' } })
      console.log('(the emulator changed site.name of target 2DZkoZH8WMEM)')
      return 0
    },
    expect: 0,
  },
  { title: 'Drift check: the hand-made change is found (exit 2 expected)', args: ['drift', config, ...state], expect: 2 },
  {
    title: 'Policies: the rules of examples/policies break on the shop, labelled pci but reporting in OWASP format (exit 1 expected)',
    args: ['plan', config, 'examples/policies', '--kind', 'target', ...state],
    expect: 1,
  },
  {
    title: 'Fix it in the YAML: the shop reports in the PCI DSS 4.0.1 format',
    run: () => {
      cpSync(join(root, config), fixed, { recursive: true })
      const shop = join(fixed, 'targets', 'shop.yaml')
      writeFileSync(shop, readText(shop, 'utf8').replace('report_type: owasp_web_2025', 'report_type: pci4'))
      console.log(`(a copy of ${config} in which targets/shop.yaml says report_type: pci4)`)
      return 0
    },
    expect: 0,
  },
  { title: 'Plan again: the rules pass, the change to the report type is planned', args: ['plan', fixed, 'examples/policies', '--kind', 'target', ...state], expect: 0 },
  ...onboardingSteps(),
]

/** A pull request onboards a new application: a target without id (its URL identifies it), its agent by name. */
function onboardingSteps() {
  const dir = join(work, 'new-application')
  const onboardState = ['--state', join(work, 'onboard-state.json')]
  return [
    {
      title: 'A pull request adds a new application in YAML: no id, the scanning agent by name',
      run: () => {
        mkdirSync(dir, { recursive: true })
        const yaml = [
          'targets:',
          '  - site:',
          '      name: Shop (new)',
          '      url: https://new.example.com/',
          '    labels: [{name: production}]',
          '    scanning_agent: {name: dc-lisbon-agent}',
          '',
        ].join('\n')
        writeFileSync(join(dir, 'new-app.yaml'), yaml)
        console.log(yaml)
        return 0
      },
      expect: 0,
    },
    { title: 'Plan: the target is to be created (+), its agent shown by name', args: ['plan', dir, ...onboardState], expect: 0 },
    { title: 'Apply: POST /targets/ creates it once; the report gives its new id', args: ['apply', dir, '--auto-approve', ...onboardState], expect: 0 },
    { title: 'Plan again: found by its URL, nothing to create or change', args: ['plan', dir, '--detailed-exitcode', ...onboardState], expect: 0 },
  ]
}

let failed = 0
console.log(`Emulator listening on ${emulator.url}\n`)
for (const [i, step] of steps.entries()) {
  console.log(bold(`\n=== Step ${i + 1}: ${step.title}`))
  const code = step.run ? step.run() : await scansync(step.args)
  if (code === step.expect) console.log(`→ exit ${code}, as expected`)
  else {
    console.log(`→ exit ${code}, expected ${step.expect}`)
    failed++
  }
}
await emulator.close()
rmSync(work, { recursive: true, force: true })
console.log(bold(failed === 0 ? '\nDemo finished: every step behaved as expected.' : `\nDemo finished: ${failed} step(s) did not behave as expected.`))
process.exit(failed === 0 ? 0 : 1)
