// The command line as users type it (issue 17): flags before or after PATH, --id split like
// --kind, dot-files skipped, a repeated path read once, --out to a missing or a directory.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleConfig, tempdir } from '../e2e/helpers.js'
import { ROOT, runCli } from '../helpers/cli.js'

const AGENT = '3kLx8Qy7Pb2m'
const OTHER_AGENT = '6NbVcX4zLkJh'

describe.concurrent('flags before or after PATH', () => {
  it.each([
    [['plan', '--kind', 'agent', 'CONFIG']],
    [['plan', '--kind=agent', 'CONFIG']],
    [['plan', 'CONFIG', '--kind', 'agent']],
    [['plan', '--id', AGENT, 'CONFIG']],
    [['plan', '--kind', 'agent', '--id', AGENT, 'CONFIG', '--format', 'json']],
  ])('%j reads only the configuration directory', async (args) => {
    const em = await emulator()
    const dir = exampleConfig()
    const { code, stdout, stderr } = await cli(em, ROOT, args.map((a) => (a === 'CONFIG' ? dir : a)))
    expect(stderr).not.toMatch(/error/i)
    expect(code).toBe(0)
    expect(stdout).not.toMatch(/\btarget\b.*2DZkoZH8WMEM/)
    const agentReads = em.requests().filter((r) => r.method === 'GET' && r.path.includes('agent'))
    expect(agentReads.length).toBeGreaterThan(0)
    expect(em.requests().some((r) => r.path.includes('target'))).toBe(false)
  })

  it('after `--`, a PATH may start with a dash, in validate, plan and drift alike; before it, it is an unknown flag', async () => {
    const em = await emulator()
    const dir = tempdir({ '-dash/agents.yaml': `agents:\n  - id: ${AGENT}\n    teams: [{id: Tm8Kq2Xa9Lp3}]\n` })
    for (const command of ['validate', 'plan', 'drift']) {
      const run = await cli(em, dir, [command, '--', '-dash'])
      expect(run.code, `${command}: ${run.stderr}`).toBe(0)
      const refused = await cli(em, dir, [command, '-dash'])
      expect(refused.code).toBe(1)
      expect(refused.stderr).toMatch(/^Error: unknown flag -dash/)
    }
  })

  it('--id a,b is split like --kind a,b', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    const { code, stderr } = await cli(em, ROOT, ['plan', '--id', `${AGENT},${OTHER_AGENT}`, dir, '--format', 'json'])
    expect(stderr).toBe('')
    expect(code).toBe(0)
    const read = new Set(em.requests().map((r) => r.path))
    expect([...read].some((p) => p.includes(AGENT))).toBe(true)
    expect([...read].some((p) => p.includes(OTHER_AGENT))).toBe(true)
  })

  it('validate PATH --quiet and validate --quiet PATH agree', async () => {
    const [after, before] = await Promise.all([runCli(['validate', 'examples/config', '-q']), runCli(['validate', '-q', 'examples/config'])])
    expect(after.code).toBe(0)
    expect(before.code).toBe(0)
  })
})

describe.concurrent('paths', () => {
  it('a repeated path is read once', async () => {
    const { code, stdout, stderr } = await runCli(['validate', 'examples/config', 'examples/config'])
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Valid: 4 files/)
  })

  it('dot-files are skipped like dot-folders', async () => {
    const dir = tempdir({
      'targets.yaml': readFileSync(join(ROOT, 'examples/config/agents.yaml'), 'utf8'),
      '.gitlab-ci.yml': 'stages: [test]\n',
      '.pre-commit-config.yaml': 'repos: []\n',
    })
    const { code, stdout, stderr } = await runCli(['validate'], { cwd: dir })
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Valid: 1 file,/)
  })

  it('a foreign YAML file reached by the default PATH is named, with the advice to pass the configuration directory', async () => {
    const dir = tempdir({
      'config/agents.yaml': readFileSync(join(ROOT, 'examples/config/agents.yaml'), 'utf8'),
      'docker-compose.yml': 'services:\n  web:\n    image: nginx\n',
    })
    const { code, stderr } = await runCli(['validate'], { cwd: dir })
    expect(code).toBe(1)
    expect(stderr).toContain('docker-compose.yml')
    expect(stderr).toMatch(/not a scansync configuration file/)
    expect(stderr).toMatch(/scansync validate config/)
    expect(stderr).not.toContain('unknown field')
  })

  it('a symbolic link to a file outside the configuration directory is refused, its content never shown', async () => {
    const outside = tempdir({ 'secret.yaml': 'targets:\n  - id: leaked-line-CONTENT\n    bogus: TopSecretLine\n' })
    const dir = tempdir({ 'config/agents.yaml': readFileSync(join(ROOT, 'examples/config/agents.yaml'), 'utf8') })
    symlinkSync(join(outside, 'secret.yaml'), join(dir, 'config', 'targets.yaml'))
    const { code, stderr, stdout } = await runCli(['validate', 'config', '--format', 'github'].slice(0, 2), { cwd: dir })
    expect(code).toBe(1)
    expect(stderr).toMatch(/config\/targets\.yaml.*symbolic link.*outside/)
    expect(stderr + stdout).not.toContain('TopSecretLine')
    expect(stderr + stdout).not.toContain('leaked-line')
    // A link that stays inside is followed.
    const inside = tempdir({ 'config/real/agents.yaml': readFileSync(join(ROOT, 'examples/config/agents.yaml'), 'utf8') })
    symlinkSync(join(inside, 'config', 'real', 'agents.yaml'), join(inside, 'config', 'agents-link.yaml'))
    mkdirSync(join(inside, 'unused'))
    const ok = await runCli(['validate', 'config/agents-link.yaml'], { cwd: inside })
    expect(ok.stderr).toBe('')
    expect(ok.code).toBe(0)
  })
})

describe.concurrent('plan --out', () => {
  it('creates missing parent directories', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    const { code, stderr } = await cli(em, dir, ['plan', '.', '--out', 'plans/today/plan.json'])
    expect(stderr).toContain('Saved the plan to plans/today/plan.json')
    expect(code).toBe(0)
    expect(JSON.parse(readFileSync(join(dir, 'plans/today/plan.json'), 'utf8'))).toBeTypeOf('object')
  })

  it('to a directory is refused clearly, before anything is read', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    mkdirSync(join(dir, 'plans'))
    const { code, stderr } = await cli(em, dir, ['plan', '.', '--out', 'plans'])
    expect(code).toBe(1)
    expect(stderr).toMatch(/^Error: --out plans is a directory/m)
    // A name the *.plan.json pattern of the .gitignore init writes matches, as the help's examples are.
    expect(stderr).toContain('e.g. --out plans/release.plan.json')
    expect(stderr).not.toMatch(/unexpected|report it/i)
    writeFileSync(join(dir, 'x'), '')
  })

  it.runIf(process.platform === 'linux')('to a place no file can be written is a clear error, not a crash', async () => {
    const em = await emulator()
    const { code, stderr } = await cli(em, exampleConfig(), ['plan', '.', '--out', '/proc/scansync-plan.json'])
    expect(code).toBe(1)
    expect(stderr).toContain('Error: cannot write the saved plan /proc/scansync-plan.json (ENOENT): no plan was saved')
    expect(stderr).not.toMatch(/unexpected|report it/i)
  })
})
