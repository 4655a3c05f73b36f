// Contract review (r16): statements of docs/contract.md checked against the real CLI.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from '../e2e/helpers.js'
import { runCli } from '../helpers/cli.js'

/** `validate ARGS` in `dir` passes with nothing on stderr; its summary line contains `summary`. */
async function expectValid(dir: string, args: string[], summary: string): Promise<void> {
  const { code, stdout, stderr } = await runCli(['validate', ...args], { cwd: dir })
  expect(stderr).toBe('')
  expect(code).toBe(0)
  expect(stdout).toContain(summary)
}

const tempdirFile = (file: string, text: string) => {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
}

describe.concurrent('configuration files: "every *.yaml / *.yml below it is read, recursively"', () => {
  it('reads the files of a folder that is a symbolic link staying inside the configuration, each file once', async () => {
    const dir = tempdir({
      'config/shared/real/agents.yaml': 'agents:\n  - id: A1\n    name: one\n',
      'config/assets.yaml': 'assets:\n  - id: S1\n    state: ARCHIVED\n',
    })
    // config/linked -> config/shared/real: its file is below the configuration (once, not twice).
    symlinkSync(join(dir, 'config', 'shared', 'real'), join(dir, 'config', 'linked'))
    // A link back to the root is no cycle.
    symlinkSync(join(dir, 'config'), join(dir, 'config', 'shared', 'loop'))
    await expectValid(dir, ['config'], 'Valid: 2 files, 0 targets, 1 asset, 1 agent.')
  })

  it('a symbolic link to a file inside the configuration is read once with the file it names (not "declared twice")', async () => {
    const dir = tempdir({
      'config/v2/agents.yaml': 'agents:\n  - id: A1\n    name: one\n',
      'config/assets.yaml': 'assets:\n  - id: S1\n    state: ARCHIVED\n',
    })
    symlinkSync(join('v2', 'agents.yaml'), join(dir, 'config', 'current.yaml'))
    // Two links to a file the walk does not reach by its own name: read once, under the first link's name.
    symlinkSync(join('.drafts', 'x.yaml'), join(dir, 'config', 'a.yaml'))
    symlinkSync(join('.drafts', 'x.yaml'), join(dir, 'config', 'b.yaml'))
    tempdirFile(join(dir, 'config', '.drafts', 'x.yaml'), 'targets: []\n')
    await expectValid(dir, ['config', 'config/v2/agents.yaml'], 'Valid: 3 files, 0 targets, 1 asset, 1 agent.')
  })

  it('a folder only reachable through a symbolic link inside the configuration is read, not silently skipped', async () => {
    const dir = tempdir({
      'config/.store/agents.yaml': 'agents:\n  - id: A1\n    name: one\n',
      'config/assets.yaml': 'assets:\n  - id: S1\n    state: ARCHIVED\n',
    })
    symlinkSync(join(dir, 'config', '.store'), join(dir, 'config', 'agents'))
    await expectValid(dir, ['config'], '1 agent')
  })

  it('a symbolic link to a folder outside the configuration is refused with an error, not silently skipped', async () => {
    const outside = tempdir({ 'agents.yaml': 'agents:\n  - id: A1\n    name: one\n' })
    const dir = tempdir({ 'config/assets.yaml': 'assets:\n  - id: S1\n    state: ARCHIVED\n' })
    symlinkSync(outside, join(dir, 'config', 'elsewhere'))
    const { code, stderr } = await runCli(['validate', 'config'], { cwd: dir })
    expect(code).toBe(1)
    expect(stderr).toMatch(/config\/elsewhere:1:1: .*symbolic link to a folder outside config/)
  })
})

describe.concurrent('configuration files: a link to a folder outside that holds no YAML', () => {
  it('is no configuration: passed over without an error', async () => {
    const outside = tempdir({ 'README.md': '# docs\n' })
    const dir = tempdir({ 'config/assets.yaml': 'assets:\n  - id: S1\n    state: ARCHIVED\n' })
    symlinkSync(outside, join(dir, 'config', 'docs'))
    const { code, stderr } = await runCli(['validate', 'config'], { cwd: dir })
    expect(stderr).toBe('')
    expect(code).toBe(0)
  })
})

describe.concurrent('policies: a violation prints `FILE:LINE:COLUMN: policy NAME: KIND ID: MESSAGE`', () => {
  it('audit keeps that shape for a live resource no file declares: the mark is part of MESSAGE, not of ID', async () => {
    const em = await emulator()
    const dir = tempdir({
      'policies.yaml': `policies:
  - name: agent-in-team
    description: Every agent belongs to a team
    kind: agent
    require: {required: [teams], properties: {teams: {minItems: 1}}}
`,
    })
    const shape = /^(?<file>[^:]+):(?<line>\d+):(?<column>\d+): policy (?<policy>[^:\s]+): (?<kind>target|asset|agent) (?<id>[^\s:]+): (?<message>.+)$/
    const text = await cli(em, dir, ['audit'])
    expect(text.code, text.stderr).toBe(2)
    const lines = text.stderr.trim().split('\n').slice(0, -1)
    expect(lines.length).toBeGreaterThan(0)
    for (const line of lines) {
      const match = shape.exec(line)
      expect(match, line).not.toBeNull()
      expect(match!.groups!.message).toContain('(declared in no file)')
    }
    const github = await cli(em, dir, ['audit', '--format', 'github'])
    for (const line of github.stdout.trim().split('\n').slice(0, -1)) expect(line).toMatch(/::agent [^\s:]+: Every agent belongs to a team .*\(declared in no file\)$/)
  })
})
