// How bin/run.js has oclif load the CLI: never a plugin from the user's data directory (oclif
// would run its hooks in every command), and, for a command line that surely runs plan, drift or
// apply, not even the package's own plugins (help, autocomplete), which those runs never use.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, ROOT } from '../helpers/cli.js'

let home: string
let marker: string
let config: string

/** A data directory whose package.json lists a "user" plugin with an init hook that leaves a file behind. */
function plantUserPlugin(dataHome: string, markerFile: string): void {
  const dir = join(dataHome, 'scansync')
  mkdirSync(join(dir, 'node_modules', 'planted'), { recursive: true })
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, oclif: { schema: 1, plugins: [{ name: 'planted', type: 'user' }] }, dependencies: { planted: '1.0.0' } }))
  writeFileSync(join(dir, 'node_modules', 'planted', 'package.json'), JSON.stringify({ name: 'planted', version: '1.0.0', main: 'index.js', oclif: { hooks: { init: './hook.js' } } }))
  writeFileSync(join(dir, 'node_modules', 'planted', 'index.js'), 'module.exports = {}\n')
  writeFileSync(join(dir, 'node_modules', 'planted', 'hook.js'), `module.exports = async () => { require('node:fs').writeFileSync(${JSON.stringify(markerFile)}, 'ran') }\n`)
}

const env = (extra: Record<string, string> = {}) => ({ PATH: process.env.PATH!, HOME: home, XDG_DATA_HOME: join(home, 'data'), NO_COLOR: '1', ...extra })
const scansync = (args: string[], extra: Record<string, string> = {}) => spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', env: env(extra) })

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'scansync-plugins-'))
  marker = join(home, 'hook-ran')
  plantUserPlugin(join(home, 'data'), marker)
  config = join(home, 'config')
  mkdirSync(config)
  writeFileSync(join(config, 'agents.yaml'), 'agents:\n  - id: Ag00000000\n    name: agent-0\n')
})

afterAll(() => rmSync(home, { recursive: true, force: true }))

describe('oclif as bin/run.js loads it', () => {
  it('the planted plugin is one oclif would run, left to its defaults', () => {
    const script = `const { run } = await import('@oclif/core'); await run(['validate', ${JSON.stringify(config)}], ${JSON.stringify(ROOT)})`
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', env: env() })
    expect(run.status, run.stderr).toBe(0)
    expect(existsSync(marker)).toBe(true)
    rmSync(marker)
  })

  it.each([
    ['validate', ['validate', 'CONFIG']],
    ['plan (a command line read for sure before oclif loads)', ['plan', 'CONFIG']],
    ['help', ['help', 'plan']],
  ])('loads no plugin from the user\'s data directory: %s', (_name, args) => {
    // plan with no token stops at "no token"; the hook, if loaded, would have run before that.
    const run = scansync(args.map((a) => (a === 'CONFIG' ? config : a)))
    expect(run.stdout + run.stderr).not.toMatch(/planted/)
    expect(existsSync(marker)).toBe(false)
  })

  it('a plan read for sure loads neither help nor autocomplete; help still loads them', () => {
    const debug = { DEBUG: 'oclif:config' }
    const plan = scansync(['plan', config, '--format', 'json'], debug)
    expect(plan.stderr).toMatch(/oclif:config loading core plugin from /)
    expect(plan.stderr).not.toMatch(/plugin-help|plugin-autocomplete/)
    const help = scansync(['help', 'plan'], debug)
    expect(help.status, help.stderr).toBe(0)
    expect(help.stdout).toMatch(/USAGE/)
    expect(help.stderr).toMatch(/loading core plugin from .*plugin-help/)
    // --help after plan is not read for sure: oclif loads everything and shows the command's help.
    const planHelp = scansync(['plan', '--help'])
    expect(planHelp.status, planHelp.stderr).toBe(0)
    expect(planHelp.stdout).toMatch(/USAGE\s+\$ scansync plan/)
  })
})
