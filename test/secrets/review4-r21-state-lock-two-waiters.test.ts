// Review round 21 (attacks on the round's last changes): two applies run right after one that was
// killed while writing the secrets state (its state.json.lock left fresh) both wait for that lock
// past the usual 10 s, until it is stale (30 s). One of them breaks it and takes it, for the few
// milliseconds its write lasts; the other, trying meanwhile, found a lock "refreshed since its wait
// began" and, being past 10 s already, gave up at once: "the changes above were sent, but the
// secrets state could not be written (… state.json.lock is held by another scansync)", exit 1, the
// very failure the wait past 10 s was meant to end. The holder that took over is a live one: it is
// waited for as long as any holder. Time is faked; the other apply's lock is dated on the fake clock.
import { existsSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it, vi } from 'vitest'
import { holdLock, STALE_LOCK_MS } from '../../src/secrets/lock.js'
import { temporaryDirectory } from '../helpers/emulator.js'

afterEach(() => {
  vi.useRealTimers()
})

const datedNow = (path: string) => {
  const now = new Date(Date.now())
  utimesSync(path, now, now)
}

it('a waiter past 10 s for a lock a killed apply left waits for the apply that took it over, then writes', async () => {
  const lock = join(temporaryDirectory('scansync-state-'), 'state.json.lock')
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'], now: Date.now() })
  // Left a moment ago by an apply that was killed while writing.
  writeFileSync(lock, '4242 an apply that was killed')
  const left = Date.now() - 1_000
  utimesSync(lock, new Date(left), new Date(left))
  let otherTookIt = false
  let outcome: string | undefined
  let release: (() => void) | undefined
  const holding = holdLock(lock, 10_000, () => {
    // The other waiter: it takes the lock as soon as the killed apply's is stale (breaking it, or
    // right after this waiter broke it), and writes for 50 ms.
    if (otherTookIt || Date.now() - left <= STALE_LOCK_MS) return
    otherTookIt = true
    rmSync(lock, { force: true })
    writeFileSync(lock, '4343 the other apply', { flag: 'wx' })
    datedNow(lock)
    setTimeout(() => rmSync(lock, { force: true }), 50)
  }).then(
    (done) => {
      release = done
      outcome = 'held'
    },
    (error: Error) => (outcome = error.message),
  )
  for (let step = 0; outcome === undefined && step < 100_000; step++) {
    await vi.advanceTimersToNextTimerAsync()
    await new Promise((resolve) => setImmediate(resolve))
  }
  await holding
  expect(otherTookIt).toBe(true)
  expect(outcome).toBe('held')
  release?.()
  expect(existsSync(lock)).toBe(false)
})

it('a lock its live holder keeps refreshing is still given up on after the usual wait', async () => {
  const lock = join(temporaryDirectory('scansync-state-'), 'state.json.lock')
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'], now: Date.now() })
  writeFileSync(lock, '4444 a live apply')
  const taken = Date.now() - 1_000
  utimesSync(lock, new Date(taken), new Date(taken))
  // Its holder refreshes it every 10 s (as holdLock does), the first time 9 s after the wait began.
  const refresh = setInterval(() => datedNow(lock), STALE_LOCK_MS / 3)
  vi.advanceTimersByTime(0)
  const start = Date.now()
  setTimeout(() => datedNow(lock), 9_000)
  let outcome: string | undefined
  const holding = holdLock(lock, 10_000).then(
    () => (outcome = 'held'),
    (error: Error) => (outcome = error.message),
  )
  for (let step = 0; outcome === undefined && step < 100_000; step++) {
    await vi.advanceTimersToNextTimerAsync()
    await new Promise((resolve) => setImmediate(resolve))
  }
  await holding
  clearInterval(refresh)
  expect(outcome).toMatch(/is held by another scansync/)
  expect(Date.now() - start).toBeLessThan(11_000)
})
