import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const BIN = join(ROOT, 'bin/run.js')

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    // Whatever happens, the emulator must not outlive the test.
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

describe('scansync emulator --seed naming something that is not a file', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'scansync-r24-seed-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('a directory: exit 1 with a message naming it', async () => {
    const seed = join(dir, 'seed.json')
    mkdirSync(seed)
    const result = await run(['emulator', '--seed', seed])
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain(seed)
    expect(result.stderr).toContain('is a directory')
  })

  it('a named pipe: exit 1 at once, not a read that never ends (and ignores Ctrl-C)', async () => {
    const seed = join(dir, 'seed.json')
    execFileSync('mkfifo', [seed])
    const result = await run(['emulator', '--seed', seed])
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain(seed)
    expect(result.stderr).toContain('not a regular file')
  }, 20_000)

  it('a missing file: exit 1 with a message naming it in words', async () => {
    const seed = join(dir, 'missing.json')
    const result = await run(['emulator', '--seed', seed])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`${seed}: no such file`)
  })
})
