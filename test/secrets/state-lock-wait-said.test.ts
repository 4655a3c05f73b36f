// After an apply's changes are sent, the secrets state is written under its lock; one left by an
// apply that died holds it up to 30 s (taken over once stale), and the apply sat silent meanwhile
// (a review's "left alone": the creation lock's wait says itself, this one did not). The writer now
// says once that it waits, naming the lock; a lock that is free says nothing.
import { utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it, vi } from 'vitest'
import { writeSecretsState, type StateUpdate } from '../../src/secrets/state.js'
import { temporaryDirectory } from '../helpers/emulator.js'

afterEach(() => {
  vi.useRealTimers()
})

const update: StateUpdate = { recorded: new Map([['target/T1', new Map([['site.basic_auth.password', { hmac: 'a'.repeat(64), live: 'OBFUSCATED_1' }]])]]) }

it('a lock left by an apply that died: the wait is said once, with the lock, then the state is written', async () => {
  const path = join(temporaryDirectory('scansync-state-'), 'state.json')
  writeFileSync(`${path}.lock`, '4242 an apply that was killed')
  const aSecondAgo = new Date(Date.now() - 1_000)
  utimesSync(`${path}.lock`, aSecondAgo, aSecondAgo)
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'], now: Date.now() })
  const said: string[] = []
  let done = false
  const writing = writeSecretsState(path, update, (text) => text, (lock) => said.push(lock)).then(() => (done = true))
  for (let step = 0; !done && step < 100_000; step++) {
    await vi.advanceTimersToNextTimerAsync()
    await new Promise((resolve) => setImmediate(resolve))
  }
  await writing
  expect(said).toEqual([`${path}.lock`])
})

it('a free lock: nothing is said', async () => {
  const path = join(temporaryDirectory('scansync-state-'), 'state.json')
  const said: string[] = []
  await writeSecretsState(path, update, (text) => text, (lock) => said.push(lock))
  expect(said).toEqual([])
})
