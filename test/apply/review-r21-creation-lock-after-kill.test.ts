// Review round 21 (two runs at once): an apply killed while it creates a target (a cancelled CI job,
// SIGKILL) leaves its creation lock (state.json.create.lock) fresh. The re-run right after waited
// for it to go stale (up to 30 s), saying only "Waiting for another apply of this configuration,
// which is creating targets (…)…": when no other apply runs, that sent people looking for one, with
// no word of how long the wait lasts. The line now says how long at most, and what a lock no apply
// holds any more means.
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, expect, it } from 'vitest'
import { runApply } from '../../src/cli/run/apply.js'
import { ensureBuilt } from '../config/helpers.js'
import { captureIo, emulator, envFor, tempdir } from '../e2e/helpers.js'
import { startProxy } from '../e2e/proxy.js'
import { spawnCli } from '../helpers/cli.js'
import { whenWaiting } from '../helpers/creation-lock.js'

beforeAll(ensureBuilt, 120_000)

const CONFIG = 'targets:\n  - site: {name: New app, url: "https://newapp.example.com/"}\n    scan_profile: lightning\n'

it('the re-run right after a killed apply says how long it waits, and that a lock left by a killed apply is taken over', async () => {
  const em = await emulator()
  const dir = tempdir({ 'config.yaml': CONFIG })
  const lock = join(dir, '.scansync', 'state.json.create.lock')

  // The first apply's POST is held at the proxy (never forwarded): the apply is killed while it holds the lock.
  let posted!: () => void
  const reachedPost = new Promise<void>((resolve) => (posted = resolve))
  let answer!: () => void
  const answered = new Promise<void>((resolve) => (answer = resolve))
  const proxy = await startProxy(em.url, async (request, forward) => {
    if (request.method !== 'POST') return forward()
    posted()
    await answered
    return { status: 503, body: '{}' }
  })
  const first = spawnCli(['apply', '.', '--auto-approve'], {
    cwd: dir,
    env: { ...envFor(em), SCANSYNC_API_URL: proxy.url },
    onSpawn: (child) => void reachedPost.then(() => child.kill('SIGKILL')),
  })
  const killed = await first
  answer()
  expect(killed.signal).toBe('SIGKILL')
  expect(existsSync(lock)).toBe(true)

  // The re-run: once it says it waits, the lock goes (as it does once it is stale, without waiting 30 s here).
  let waitingLine = ''
  const io = whenWaiting(captureIo({ env: envFor(em), cwd: dir }), () => {
    waitingLine = io.err().split('\n').find((line) => line.startsWith('Waiting for another apply')) ?? ''
    rmSync(lock, { force: true })
  })
  const code = await runApply({ paths: ['.'], format: 'text', autoApprove: true }, io)
  expect(code, io.err()).toBe(0)
  expect(waitingLine).toBe(
    `Waiting for another apply of this configuration, which is creating targets (${lock})… (at most 120 s; if no other apply runs, the lock was left by one that died, and is taken over within 30 s)`,
  )
  expect(em.requests().filter((r) => r.method === 'POST')).toHaveLength(1)
  expect(existsSync(lock)).toBe(false)
})
