// Review round 24 (emulator and init as users run them): `scansync emulator` given what it cannot
// serve with. A seed that is not a file: a named pipe hung for good (Ctrl-C and SIGTERM did
// nothing, start-up stuck reading it), a directory or a missing file printed the system's raw
// error. A token no client can send (`--token "$TOKEN"` with the variable unset, or pasted with a
// space): it started, and every request got 401. Each is now "could not start", exit 1, in words,
// and a token is never repeated.
import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

const BIN = join(fileURLToPath(new URL('../../', import.meta.url)), 'bin/run.js')

/** `scansync emulator …`: one that started anyway is stopped as Ctrl-C would (its banner on stdout shows it served); none outlives the test. */
function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.stdout.once('data', () => child.kill('SIGINT'))
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

describe('scansync emulator --token that no client can send', () => {
  it('an empty token: could not start (exit 1), said in words', async () => {
    const result = await run(['emulator', '--port', '0', '--token', ''])
    expect(result.stdout).toBe('')
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('--token is empty')
  }, 20_000)

  it('a token with a space: could not start (exit 1), without repeating the token', async () => {
    const result = await run(['emulator', '--port', '0', '--token', 'secret part2'])
    expect(result.stdout).toBe('')
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('--token')
    expect(result.stderr).not.toContain('secret')
    expect(result.stderr).not.toContain('part2')
  }, 20_000)
})
