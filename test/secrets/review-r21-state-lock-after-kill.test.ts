// Review round 21 (two runs at once): an apply killed while it wrote the secrets state (SIGKILL, a
// runner gone) leaves state.json.lock, fresh. The next apply, run right after, sent its changes,
// waited 10 s for that lock, and failed (exit 1: "the changes above were sent, but the secrets
// state could not be written … (… state.json.lock is held by another scansync)"), though no other
// scansync ran: a lock is taken for one left by a process that died only after 30 s without
// refresh, longer than the writer waited. The writer now waits long enough for a dead process's
// lock to be taken over. Time is faked: the lock's age is what the wait looks at.
import { utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it, vi } from 'vitest'
import { readSecretsState, writeSecretsState, type StateUpdate } from '../../src/secrets/state.js'
import { temporaryDirectory } from '../helpers/emulator.js'

afterEach(() => {
  vi.useRealTimers()
})

const update: StateUpdate = { recorded: new Map([['target/T1', new Map([['site.basic_auth.password', { hmac: 'a'.repeat(64), live: 'OBFUSCATED_1' }]])]]) }

it('a state lock that a killed apply has just left is taken over once stale: the entries are written', async () => {
  const path = join(temporaryDirectory('scansync-state-'), 'state.json')
  // Left a moment ago by an apply that was killed while writing.
  writeFileSync(`${path}.lock`, '4242 an apply that was killed')
  const aSecondAgo = new Date(Date.now() - 1_000)
  utimesSync(`${path}.lock`, aSecondAgo, aSecondAgo)
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'], now: Date.now() })
  let outcome: string | undefined
  const writing = writeSecretsState(path, update, (text) => text).then(
    () => (outcome = 'written'),
    (error: Error) => (outcome = error.message),
  )
  // Time moves only from one of the writer's waits to the next (none while files are read or written).
  for (let step = 0; outcome === undefined && step < 100_000; step++) {
    await vi.advanceTimersToNextTimerAsync()
    await new Promise((resolve) => setImmediate(resolve))
  }
  await writing
  expect(outcome).toBe('written')
  vi.useRealTimers()
  expect(Object.keys((await readSecretsState(path)).resources)).toEqual(['target/T1'])
})
