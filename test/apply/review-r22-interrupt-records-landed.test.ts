// Review round 22 (interruptions: signals, closed streams, a full disk): a CI runner cancelling a
// job sends SIGTERM, then SIGKILL after a grace period (`docker stop`: 10 s). On the first signal
// apply stops starting requests and waits up to 10 s for those in flight, and only then wrote the
// secrets state: a SIGKILL within that wait lost the records of every secret already applied, which
// the next plan showed as "not yet tracked" and the next apply sent again. What has landed is now
// recorded at once, when the signal comes; the write after the wait records the rest.
//
// In-process, the interrupt pressed through Io.onInterrupt. One write is answered, the other is held
// by the service; time is then stopped (the wait for the one in flight never ends), so the state can
// only be written by the signal itself.
import { existsSync, readFileSync } from 'node:fs'
import { setImmediate as turn } from 'node:timers/promises'
import { afterEach, expect, it, vi } from 'vitest'
import { applyOneLandedOneHeld } from './interrupt-setup.js'

afterEach(() => {
  vi.useRealTimers()
})

const PASSWORD = 'landed-Secret-6c3a'
const [LANDED, HELD] = ['Landed000001', 'Landed000002']

it('the first interrupt records the secrets already applied before it waits for the requests in flight', { timeout: 60_000 }, async () => {
  // The first write answered and taken in (the progress line counts it), the other on the wire.
  const { em, state, interrupt, running } = await applyOneLandedOneHeld({ landed: LANDED, held: HELD, password: PASSWORD, host: 'landed' })

  // From now on no timer fires: the wait for the write in flight would never end.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  interrupt()
  const recorded = () => existsSync(state) && Object.keys((JSON.parse(readFileSync(state, 'utf8')) as { resources: object }).resources).includes(`target/${LANDED}`)
  for (let i = 0; i < 5_000 && !recorded(); i++) await turn()
  expect(recorded()).toBe(true)
  expect(readFileSync(state, 'utf8')).not.toContain(PASSWORD)

  // Time again, and the service gone: the write in flight ends, and so does the apply.
  vi.useRealTimers()
  await em.close()
  expect(await running).toBe(130)
})
