// Command-line manners through the real executable: help lists every command with its summary,
// every command's help has examples, --version, and shell completion.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT, runCli } from '../helpers/cli.js'

interface ManifestCommand {
  summary?: string
  description?: string
  examples?: unknown[]
  flags: Record<string, { char?: string }>
}
const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as { commands: Record<string, ManifestCommand> }
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
const OWN = Object.keys(manifest.commands).sort()
const CONTRACT = ['apply', 'drift', 'emulator', 'import', 'init', 'plan', 'schema', 'validate']

const cache = mkdtempSync(join(tmpdir(), 'scansync-cli-'))
afterAll(() => rmSync(cache, { recursive: true, force: true }))
/** Plugins write caches under HOME / XDG_CACHE_HOME: keep them in a temporary directory. */
const env = { HOME: cache, XDG_CACHE_HOME: join(cache, 'cache'), XDG_CONFIG_HOME: join(cache, 'config'), XDG_DATA_HOME: join(cache, 'data') }
const squash = (text: string) => text.replace(/\s+/g, ' ')

describe.concurrent('scansync --help', () => {
  it('the manifest holds every command of the contract, each with a one-line summary', () => {
    expect(OWN).toEqual(expect.arrayContaining(CONTRACT))
    for (const id of OWN) {
      const summary = manifest.commands[id].summary ?? ''
      expect(summary, id).toMatch(/^\S.{9,120}$/)
      expect(summary, id).not.toContain('\n')
    }
  })

  it('lists every command with its summary', async () => {
    const { code, stdout, stderr } = await runCli(['--help'], { env })
    expect(code).toBe(0)
    expect(stderr).toBe('')
    const commands = stdout.split('\nCOMMANDS\n')[1]
    expect(commands).toBeDefined()
    for (const id of [...OWN, 'autocomplete', 'help']) {
      const entry = new RegExp(`^  ${id} +(\\S.*)$`, 'm').exec(commands)
      expect(entry, `${id} is listed`).not.toBeNull()
    }
    for (const id of OWN) expect(squash(commands), id).toContain(squash(`${id} ${manifest.commands[id].summary}`))
  })

  it.each(OWN)('scansync %s --help has a description and examples', async (id) => {
    expect(manifest.commands[id].examples?.length ?? 0, id).toBeGreaterThan(0)
    const { code, stdout } = await runCli([id, '--help'], { env })
    expect(code).toBe(0)
    expect(stdout).toContain('\nDESCRIPTION\n')
    const examples = stdout.split('\nEXAMPLES\n')[1] ?? ''
    expect(examples, `${id} --help shows examples`).toMatch(new RegExp(`\\$ scansync ${id}\\b`))
  })

  it('scansync help <command> works like <command> --help', async () => {
    const [viaHelp, viaFlag] = await Promise.all([runCli(['help', 'plan'], { env }), runCli(['plan', '--help'], { env })])
    expect(viaHelp.code).toBe(0)
    expect(viaHelp.stdout).toBe(viaFlag.stdout)
  })
})

describe.concurrent('scansync --version', () => {
  it.each([['--version'], ['-v']])('%s prints scansync/<version> <platform> <node>', async (flag) => {
    const { code, stdout } = await runCli([flag], { env })
    expect(code).toBe(0)
    expect(stdout).toMatch(new RegExp(`^scansync/${pkg.version.replaceAll('.', '\\.')} `))
  })
})

describe.concurrent('shell completion', () => {
  it('scansync autocomplete --help works', async () => {
    const { code, stdout } = await runCli(['autocomplete', '--help'], { env })
    expect(code).toBe(0)
    expect(stdout).toContain('$ scansync autocomplete bash')
  })

  it('scansync autocomplete script bash completes our commands and flags', async () => {
    const setup = await runCli(['autocomplete', 'bash'], { env })
    expect(setup.code).toBe(0)
    expect(setup.stdout).toContain('scansync autocomplete script bash')
    const script = await runCli(['autocomplete', 'script', 'bash'], { env })
    expect(script.code).toBe(0)
    const functions = readFileSync(join(env.XDG_CACHE_HOME, 'scansync', 'autocomplete', 'functions', 'bash', 'scansync.bash'), 'utf8')
    for (const id of OWN) expect(functions, id).toContain(id)
    expect(functions).toContain('--detailed-exitcode')
  })
})
