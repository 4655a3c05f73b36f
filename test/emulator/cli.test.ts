import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Io } from '../../src/core/io.js'
import { runEmulator, type EmulatorCommandOptions } from '../../src/emulator/cli.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

function captured(): Io & { out(): string; err(): string } {
  let out = ''
  let err = ''
  return {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
    stdinIsTTY: false,
    env: {},
    cwd: ROOT,
    out: () => out,
    err: () => err,
  }
}

const DEFAULTS: EmulatorCommandOptions = { host: '127.0.0.1', port: 0, token: 'demo-token' }

describe('scansync emulator (in process)', () => {
  it('prints one line with the URL, serves until stopped, exits 0', async () => {
    const io = captured()
    let stop = () => {}
    const stopped = new Promise<void>((resolve) => (stop = resolve))
    const done = runEmulator({ ...DEFAULTS, seed: join(ROOT, 'examples/emulator-seed.json'), fault: ['503:x1'] }, io, stopped)
    while (!io.out().includes('\n')) await new Promise((resolve) => setTimeout(resolve, 5))
    const url = io.out().trim().replace(/^listening on /, '')
    expect(io.out()).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\n$/)
    expect(io.err()).toContain('4 targets, 4 assets, 3 agents, 3 teams')
    expect((await fetch(url + '/targets/', { headers: { authorization: 'JWT demo-token' } })).status).toBe(503)
    expect((await fetch(url + '/targets/', { headers: { authorization: 'JWT demo-token' } })).status).toBe(200)
    stop()
    expect(await done).toBe(0)
  })

  it('reads a YAML seed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scansync-emulator-'))
    try {
      writeFileSync(join(dir, 'seed.yaml'), 'agents:\n  - id: AgentYaml111\n    name: from-yaml\n')
      const io = captured()
      let stop = () => {}
      const done = runEmulator({ ...DEFAULTS, seed: join(dir, 'seed.yaml') }, io, new Promise<void>((resolve) => (stop = resolve)))
      while (!io.out().includes('\n')) await new Promise((resolve) => setTimeout(resolve, 5))
      const url = io.out().trim().replace(/^listening on /, '')
      const agent = await fetch(url + '/scanning-agents/AgentYaml111/', { headers: { authorization: 'JWT demo-token' } }).then((r) => r.json())
      expect(agent).toMatchObject({ name: 'from-yaml' })
      stop()
      expect(await done).toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('exits 1 with a message when it cannot start', async () => {
    const cases: [Partial<EmulatorCommandOptions>, RegExp][] = [
      [{ fault: ['418'] }, /invalid fault "418": unknown type/],
      [{ host: '0.0.0.0' }, /could not start: refusing to listen on 0\.0\.0\.0/],
      [{ seed: join(ROOT, 'no-such-seed.json') }, /ENOENT|no such file/],
      [{ seed: join(ROOT, 'package.json') }, /unknown key "name"/],
    ]
    for (const [options, message] of cases) {
      const io = captured()
      expect(await runEmulator({ ...DEFAULTS, ...options }, io, new Promise(() => {}))).toBe(1)
      expect(io.err()).toMatch(message)
      expect(io.out()).toBe('')
    }
  })
})

describe('scansync emulator (the built CLI)', () => {
  beforeAll(() => {
    if (!existsSync(join(ROOT, 'dist/cli/commands/emulator.js'))) throw new Error('dist/ is not built: run npm run build first')
  })

  it('serves the example seed, and stops with exit 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/run.js'), 'emulator', '--seed', 'examples/emulator-seed.json', '--token', 'demo-token', '--port', '0'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
    const firstLine = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve)
      child.once('close', (code) => reject(new Error(`exited early with ${code}`)))
    })
    expect(firstLine).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/)
    const url = firstLine.replace(/^listening on /, '')
    const page = (await fetch(url + '/targets/', { headers: { authorization: 'JWT demo-token' } }).then((r) => r.json())) as { results: { id: string }[] }
    expect(page).toMatchObject({ count: 4, page_total: 1 })
    expect(page.results.map((t) => t.id)).toEqual(['2DZkoZH8WMEM', '5HnBvC3xZaQw', '7QwErTy2UiOp', '9XcVbN5mQwEr'])
    expect((await fetch(url + '/targets/')).status).toBe(401)
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
    expect(stdout).toBe(firstLine + '\n')
  })
})
