// Issue 8, interrupts: Ctrl-C during apply stops starting new requests, waits a bounded time for
// those in flight, writes the secrets state, says what was applied and what was not, and exits
// 130; a second Ctrl-C exits at once. SIGTERM (a CI runner cancelling the job) does the same; it
// used to end the process at once, with no report and no secrets state. The real CLI in a child process, SIGINT sent once the first
// writes have landed (seen in the emulator's request log).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ChildProcess } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { runApply } from '../../src/cli/run/apply.js'
import { onInterrupts } from '../../src/cli/run/errors.js'
import { NotSentError, ServiceUnavailableError } from '../../src/client/index.js'
import type { Emulator, EmulatorSeed, RecordedRequest } from '../../src/emulator/index.js'
import { ensureBuilt } from '../config/helpers.js'
import { captureIo, emulator, envFor, runCli, tempdir, writes } from '../e2e/helpers.js'
import { cleanup, delay, json, rejection, setup } from '../client/server.js'

beforeAll(ensureBuilt, 120_000)

const COUNT = 40
const PARALLELISM = 4
const IDS = Array.from({ length: COUNT }, (_, i) => `IntTgt${String(i).padStart(6, '0')}`)
const SITE_PW = 'interrupt-Secret-5c7e'

const seed = (): EmulatorSeed => ({ targets: IDS.map((id, i) => ({ id, site: { name: `old ${i}`, url: `https://i${i}.example.com/` } })) })

/** Every target changes: a new name and a password from the environment (hidden by the service). */
const CONFIG =
  'targets:\n' +
  IDS.map(
    (id, i) =>
      `  - id: ${id}\n    site:\n      name: new ${i}\n      has_basic_auth: true\n      basic_auth: {username: scanner, password: "\${SITE_PW}", password_is_sensitive: true}\n`,
  ).join('')

/** Resolves once `check` holds, polling the emulator's log. */
async function until(check: () => boolean, what: string, limitMs = 20_000): Promise<void> {
  for (let waited = 0; !check(); waited += 5) {
    if (waited > limitMs) throw new Error(`gave up waiting for ${what}`)
    await sleep(5)
  }
}

const answered = (r: RecordedRequest) => r.status !== 0

interface Report {
  changes: Array<{ id: string; result: string; sent?: boolean; error?: string }>
  summary: { change: number; unchanged: number; applied: number; failed: number; not_applied: number }
  interrupted?: boolean
}

describe('Ctrl-C during apply', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('the first (%s) stops new requests, waits for those in flight, writes the secrets state, reports, exits 130', { timeout: 60_000 }, async (signal) => {
    const em = await emulator({ latencyMs: 200, obfuscate: true, seed: seed() })
    const dir = tempdir({ 'config.yaml': CONFIG })
    let atInterrupt: RecordedRequest[] = []
    const run = await runCli(['apply', '--auto-approve', '--format', 'json', '--parallelism', String(PARALLELISM)], {
      cwd: dir,
      env: envFor(em, { SITE_PW }),
      onSpawn: (child: ChildProcess) => {
        void until(() => writes(em).some(answered), 'the first write').then(() => {
          atInterrupt = writes(em)
          child.kill(signal)
        })
      },
    })
    expect(run.stderr).toContain('Interrupted: no new requests will start; waiting for those in flight')
    expect(run.code).toBe(130)

    const sent = writes(em)
    // It stopped: far from all were sent, and after the interrupt only those already in flight
    // arrived (at most one per parallel slot), none of them a second attempt.
    expect(sent.length).toBeLessThan(COUNT)
    expect(sent.length - atInterrupt.length).toBeLessThanOrEqual(PARALLELISM)
    const before = new Set(atInterrupt.map((r) => r.path))
    expect(sent.slice(atInterrupt.length).filter((r) => before.has(r.path))).toEqual([])
    expect(new Set(sent.map((r) => r.path)).size).toBe(sent.length)

    // What was applied and what was not: every write that was sent was answered and is reported
    // applied; every change reported not applied was never sent.
    const report = JSON.parse(run.stdout) as Report
    expect(report.interrupted).toBe(true)
    const applied = report.changes.filter((c) => c.result === 'applied').map((c) => `/targets/${c.id}/`).sort()
    expect(applied).toEqual(sent.map((r) => r.path).sort())
    expect(report.summary).toEqual({ create: 0, change: COUNT, unchanged: 0, applied: sent.length, failed: COUNT - sent.length, not_applied: COUNT - sent.length })
    for (const change of report.changes.filter((c) => c.result !== 'applied')) {
      expect(change).toMatchObject({ result: 'failed', sent: false, error: 'not sent: interrupted before it started' })
    }

    // The secrets state records the secrets of what was applied, and nothing else.
    const statePath = join(dir, '.scansync', 'state.json')
    expect(existsSync(statePath)).toBe(true)
    const stateText = readFileSync(statePath, 'utf8')
    expect(Object.keys(JSON.parse(stateText).resources).sort()).toEqual(report.changes.filter((c) => c.result === 'applied').map((c) => `target/${c.id}`).sort())
    expect(stateText + run.stdout + run.stderr).not.toContain(SITE_PW)
  })

  it.each(['SIGINT', 'SIGTERM'] as const)('%s while apply is still reading: exit 130 at once, saying nothing was sent', { timeout: 60_000 }, async (signal) => {
    // Reads answered only after a minute: the apply is still reading when the signal comes.
    const em = await emulator({ seed: seed(), faults: [{ type: 'slow', method: 'GET', delayMs: 60_000 }] })
    const dir = tempdir({ 'config.yaml': CONFIG })
    const run = await runCli(['apply', '--auto-approve', '--format', 'json'], {
      cwd: dir,
      env: envFor(em, { SITE_PW }),
      // The reads may leave before the command has loaded (bin/run.js starts them): the signal
      // comes a moment after the first, while every read still waits for its answer.
      onSpawn: (child: ChildProcess) => void until(() => em.requests().length > 0, 'the first read').then(() => sleep(1_000)).then(() => child.kill(signal)),
    })
    expect(run.code).toBe(130)
    expect(run.stderr).toContain('Interrupted before anything was sent: nothing was sent.')
    expect(writes(em)).toEqual([])
  })

  it('a second Ctrl-C exits at once with 130, saying what it knows; the secrets state records what landed (nothing here, so it is not written)', { timeout: 60_000 }, async () => {
    // Writes that land at once but are answered only after a minute: they stay in flight.
    const em = await emulator({ obfuscate: true, seed: seed(), faults: [{ type: 'slow', method: 'PATCH', delayMs: 60_000 }] })
    const dir = tempdir({ 'config.yaml': CONFIG })
    const run = await runCli(['apply', '--auto-approve', '--format', 'json', '--parallelism', String(PARALLELISM)], {
      cwd: dir,
      env: envFor(em, { SITE_PW, SCANSYNC_TIMEOUT_MS: '120000' }),
      onSpawn: (child: ChildProcess) => {
        let stderr = ''
        child.stderr?.on('data', (chunk) => (stderr += chunk))
        void until(() => writes(em).length >= PARALLELISM, 'the writes in flight')
          .then(() => child.kill('SIGINT'))
          .then(() => until(() => stderr.includes('Interrupted'), 'the first interrupt to be taken'))
          .then(() => child.kill('SIGINT'))
      },
    })
    expect(run.code).toBe(130)
    // At once: not after the wait for the requests in flight (which ends with the full report).
    expect(run.stdout).toBe('')
    expect(run.stderr).toContain(`Quit at once: 0 applied, 0 failed, ${PARALLELISM} in flight (they may or may not have been applied), ${COUNT - PARALLELISM} not sent; run scansync plan to see what is left.`)
    expect(writes(em)).toHaveLength(PARALLELISM)
    // Every write is still in flight: no secret is known to have landed, and a whole apply with
    // nothing to record writes no state either (test/apply/quit-at-once-state.test.ts).
    expect(existsSync(join(dir, '.scansync', 'state.json'))).toBe(false)
  })
})

describe('one place maps interrupts to exit codes', () => {
  it('the first press asks the run to stop; the second says what it knows, then exits 130 at once, even if saying it fails', () => {
    let press: (() => void) | undefined
    const io = { ...captureIo(), onInterrupt: (handler: () => void) => ((press = handler), () => (press = undefined)) }
    const calls: string[] = []
    const exit = ((code: number) => {
      calls.push(`exit ${code}`)
      return undefined as never
    }) as (code: number) => never
    const stop = onInterrupts(io, { first: () => calls.push('first'), second: () => (calls.push('second'), undefined) }, exit)
    press!()
    expect(calls).toEqual(['first'])
    press!()
    expect(calls).toEqual(['first', 'second', 'exit 130'])
    const failing = onInterrupts(io, { first: () => undefined, second: () => { throw new Error('disk full') } }, exit)
    press!()
    expect(() => press!()).toThrow('disk full')
    expect(calls.filter((c) => c === 'exit 130')).toHaveLength(2)
    stop()
    failing()
  })
})

describe('Ctrl-C during retries (in-process)', () => {
  it('a request waiting to retry is not sent again: it fails with the answer it had, and the apply ends at once', { timeout: 30_000 }, async () => {
    // Every write answered 503 with Retry-After 5 s: all are waiting when Ctrl-C comes.
    const em: Emulator = await emulator({ seed: seed(), faults: [{ type: '503', method: 'PATCH', retryAfter: 5 }] })
    const dir = tempdir({ 'config.yaml': CONFIG })
    let interrupt: (() => void) | undefined
    const io = { ...captureIo({ env: envFor(em, { SITE_PW, SCANSYNC_RETRY_AFTER_LIMIT_MS: '60000' }), cwd: dir }), onInterrupt: (handler: () => void) => ((interrupt = handler), () => {}) }
    const running = runApply({ paths: ['.'], format: 'json', autoApprove: true, parallelism: PARALLELISM }, io)
    await until(() => writes(em).filter(answered).length >= PARALLELISM, 'the first answers')
    interrupt!()
    const code = await running
    expect(code).toBe(130)
    const sent = writes(em)
    expect(sent).toHaveLength(PARALLELISM)
    const report = JSON.parse(io.out()) as Report
    expect(report.summary).toMatchObject({ applied: 0, failed: COUNT, not_applied: COUNT - PARALLELISM })
    for (const change of report.changes.filter((c) => c.result === 'failed' && c.sent !== false)) {
      expect(change.error).toMatch(/^service unavailable \(HTTP 503\): Service temporarily unavailable, try again later\. \(interrupted: not retried\); it may or may not have been applied: run scansync plan to see$/)
    }
  })
})

describe('the client stops sending when told to (RequestOptions.stop)', () => {
  afterEach(cleanup)

  it('a request still waiting for a connection is not sent: NotSentError; the one on the wire is waited for', async () => {
    const { server, client } = await setup(async (_req, res) => {
      await delay(200)
      json(res, 200, { ok: true })
    }, { parallelism: 1 })
    const stop = new AbortController()
    const first = client.request('PATCH', '/targets/a/', { body: {}, resource: 'target a', stop: stop.signal })
    const second = client.request('PATCH', '/targets/b/', { body: {}, resource: 'target b', stop: stop.signal })
    await until(() => server.received.length === 1, 'the first request')
    stop.abort()
    await expect(first).resolves.toEqual({ ok: true })
    const error = await rejection(second)
    expect(error).toBeInstanceOf(NotSentError)
    expect(error.message).toBe('target b: not sent: interrupted before it started')
    expect(server.received.map((r) => r.url)).toEqual(['/targets/a/'])
  })

  it('a request waiting to retry gives its last answer at once, marked, and sends nothing more', async () => {
    const { server, client } = await setup((_req, res) => json(res, 503, { detail: 'busy' }, { 'Retry-After': '30' }), { retryAfterCeilingMs: 60_000 })
    const stop = new AbortController()
    const pending = client.request('PUT', '/discovery/assets/a/', { body: {}, resource: 'asset a', stop: stop.signal })
    await until(() => server.received.length === 1, 'the first attempt')
    await delay(20)
    stop.abort()
    const error = await rejection(pending)
    expect(error).toBeInstanceOf(ServiceUnavailableError)
    expect(error.message).toBe('asset a: service unavailable (HTTP 503): busy (interrupted: not retried)')
    expect(server.received).toHaveLength(1)
  })
})
