// Review round 21 (two runs at once): an apply killed while it wrote the secrets state (SIGKILL, a
// runner gone) leaves state.json.lock, fresh. The next apply, run right after, sent its changes,
// waited 10 s for that lock, and failed (exit 1: "the changes above were sent, but the secrets
// state could not be written … (… state.json.lock is held by another scansync)"), though no other
// scansync ran: a lock is taken for one left by a process that died only after 30 s without
// refresh, longer than the writer waited. The writer now waits long enough for a dead process's
// lock to be taken over. Time is faked: the lock's age is what the wait looks at.
import { existsSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it, vi } from 'vitest'
import { holdLock, STALE_LOCK_MS } from '../../src/secrets/lock.js'
import { readSecretsState, writeSecretsState, type StateUpdate } from '../../src/secrets/state.js'
import { temporaryDirectory } from '../helpers/emulator.js'

afterEach(() => {
  vi.useRealTimers()
})

const update: StateUpdate = { recorded: new Map([['target/T1', new Map([['site.basic_auth.password', { hmac: 'a'.repeat(64), live: 'OBFUSCATED_1' }]])]]) }

/** A state path whose lock an apply killed while writing left a second ago; then time faked, the lock's age being what the wait looks at. */
function lockLeftByAKilledApply(): string {
  const path = join(temporaryDirectory('scansync-state-'), 'state.json')
  writeFileSync(`${path}.lock`, '4242 an apply that was killed')
  const aSecondAgo = new Date(Date.now() - 1_000)
  utimesSync(`${path}.lock`, aSecondAgo, aSecondAgo)
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'], now: Date.now() })
  return path
}

/** What the write (or the hold) came to, time moving only from one of the writer's waits to the next (none while files are read or written). */
async function outcomeOf(writing: Promise<unknown>, done = 'written'): Promise<string> {
  let outcome: string | undefined
  const settled = writing.then(
    () => (outcome = done),
    (error: Error) => (outcome = error.message),
  )
  for (let step = 0; outcome === undefined && step < 100_000; step++) {
    await vi.advanceTimersToNextTimerAsync()
    await new Promise((resolve) => setImmediate(resolve))
  }
  await settled
  return outcome!
}

it('a state lock that a killed apply has just left is taken over once stale: the entries are written', async () => {
  const path = lockLeftByAKilledApply()
  expect(await outcomeOf(writeSecretsState(path, update, (text) => text))).toBe('written')
  vi.useRealTimers()
  expect(Object.keys((await readSecretsState(path)).resources)).toEqual(['target/T1'])
})

// The wait, up to 30 s after the changes were sent, was silent (the creation lock's says itself):
// the writer says once that it waits, naming the lock; a free lock says nothing.
it('the wait is said once, naming the lock; a free lock says nothing', async () => {
  const said: string[] = []
  const path = lockLeftByAKilledApply()
  expect(await outcomeOf(writeSecretsState(path, update, (text) => text, (lock) => said.push(lock)))).toBe('written')
  expect(said).toEqual([`${path}.lock`])
  vi.useRealTimers()
  const free = join(temporaryDirectory('scansync-state-'), 'state.json')
  await writeSecretsState(free, update, (text) => text, (lock) => said.push(lock))
  expect(said).toEqual([`${path}.lock`])
})

// The last attack wave: two applies run right after one that was
// killed while writing the secrets state (its state.json.lock left fresh) both wait for that lock
// past the usual 10 s, until it is stale (30 s). One of them breaks it and takes it, for the few
// milliseconds its write lasts; the other, trying meanwhile, found a lock "refreshed since its wait
// began" and, being past 10 s already, gave up at once: "the changes above were sent, but the
// secrets state could not be written (… state.json.lock is held by another scansync)", exit 1, the
// very failure the wait past 10 s was meant to end. The holder that took over is a live one: it is
// waited for as long as any holder. Time is faked; the other apply's lock is dated on the fake clock.
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
  }).then((done) => (release = done))
  const outcome = await outcomeOf(holding, 'held')
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
  const outcome = await outcomeOf(holdLock(lock, 10_000), 'held')
  clearInterval(refresh)
  expect(outcome).toMatch(/is held by another scansync/)
  expect(Date.now() - start).toBeLessThan(11_000)
})
