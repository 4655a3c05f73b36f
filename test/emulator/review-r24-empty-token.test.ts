import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const BIN = join(fileURLToPath(new URL('../../', import.meta.url)), 'bin/run.js')

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    // An emulator that started anyway is stopped as Ctrl-C would: the exit code then shows it served.
    const timer = setTimeout(() => child.kill('SIGINT'), 10_000)
    child.stdout.once('data', () => child.kill('SIGINT'))
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

// `scansync emulator --token "$TOKEN"` with the variable unset (or a token pasted with a space):
// no client can ever send it in `Authorization: JWT <token>`, so every request would get 401.
describe('scansync emulator --token that no client can send', () => {
  it('an empty token: could not start (exit 1), said in words', async () => {
    const result = await run(['emulator', '--port', '0', '--token', ''])
    expect(result.stdout).toBe('')
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('--token is empty')
  }, 15_000)

  it('a token with a space: could not start (exit 1), without repeating the token', async () => {
    const result = await run(['emulator', '--port', '0', '--token', 'secret part2'])
    expect(result.stdout).toBe('')
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('--token')
    expect(result.stderr).not.toContain('secret')
    expect(result.stderr).not.toContain('part2')
  }, 15_000)
})
