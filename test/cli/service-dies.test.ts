// A long apply in CI (issue 17, bugs 4 and 5): counts on stderr while it runs, and when the
// service dies half-way the run stops sending, reports what landed, failed and was not sent,
// and exits 1 at once instead of retrying every change on its own for minutes.
import { spawn } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import type { EmulatorSeed } from '../../src/emulator/index.js'
import { emulator, tempdir, TOKEN } from '../e2e/helpers.js'
import { BIN, collectOutput } from '../helpers/cli.js'

const N = 200
const ids = Array.from({ length: N }, (_, i) => `Dies${String(i).padStart(8, '0')}`)
const seed: EmulatorSeed = { targets: ids.map((id, i) => ({ id, site: { name: `Old ${i}`, url: `https://s${i}.example.com/` } })) }
const yaml = `targets:\n${ids.map((id, i) => `  - id: ${id}\n    site:\n      name: New ${i}\n`).join('')}`

function apply(url: string, cwd: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, 'apply', '.', '--auto-approve', '--parallelism', '4'], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', SCANSYNC_API_URL: url, SCANSYNC_API_TOKEN: TOKEN, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return collectOutput(child)
}

describe.concurrent('apply against a service', () => {
  it('that dies half-way: stops sending after a few connection failures in a row and says what landed, failed and was not sent', async () => {
    const em = await emulator({ seed, latencyMs: 5 })
    const dir = tempdir({ 'targets.yaml': yaml })
    // The real service's retry settings (6 attempts, backoff to 10 s): without a breaker, minutes.
    const run = apply(em.url, dir)
    while (em.requests().filter((r) => r.method === 'PATCH').length < 20) await sleep(10)
    await em.close()
    const { code, stdout } = await run
    expect(code).toBe(1)
    const applied = stdout.match(/^✓ .* applied$/gm)?.length ?? 0
    const notSent = stdout.match(/^- target .* not sent: the service at http:\/\/127\.0\.0\.1:\d+ stopped answering \(5 connection failures in a row/gm)?.length ?? 0
    expect(applied).toBeGreaterThanOrEqual(15)
    expect(notSent).toBeGreaterThan(N / 2)
    // Each failure line names the resource once.
    for (const line of stdout.split('\n').filter((l) => l.startsWith('✗'))) expect(line).toMatch(/^✗ target (Dies\d+) "New \d+" failed: (?!target)/)
    expect(stdout).toMatch(/applied.*failed|failed.*applied/)
  }, 60_000)

  it('without a terminal: a line of counts on stderr while it runs', async () => {
    const em = await emulator({ seed, latencyMs: 20 })
    const dir = tempdir({ 'targets.yaml': yaml })
    const { code, stderr } = await apply(em.url, dir, { SCANSYNC_PROGRESS_MS: '1' })
    expect(code).toBe(0)
    expect(stderr).toMatch(/^Reading: \d+ of 200 done \(\d+ s\)$/m)
    expect(stderr).toMatch(/^Applying: \d+ of 200 done \(\d+ s\)$/m)
    expect(stderr).not.toMatch(/[█░\r]/)
  }, 60_000)

  it('plan against a service that is gone ends at once, saying it stopped answering', async () => {
    const em = await emulator({ seed })
    const url = em.url
    await em.close()
    const dir = tempdir({ 'targets.yaml': yaml })
    const child = spawn(process.execPath, [BIN, 'plan', '.', '--parallelism', '4'], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', SCANSYNC_API_URL: url, SCANSYNC_API_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const { code, stderr } = await collectOutput(child)
    expect(code).toBe(1)
    expect(stderr).toMatch(/^Error: the target list: could not reach the service at .*: connection refused \(ECONNREFUSED\) \(5 attempts\) \(no further attempt: the service stopped answering\)$/m)
  }, 60_000)
})
