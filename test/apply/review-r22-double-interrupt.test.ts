// Review round 22 (attacks on this round's interruption changes): the first interrupt of an apply
// now writes the secrets state of what has landed at once (recordLanded), an awaited write holding
// the state's lock. A second interrupt while it held it (a double Ctrl-C, or `npx scansync apply`,
// where the terminal's Ctrl-C reaches the run and npx forwards it again) quit at once through the
// synchronous write, which waited 2 s for the lock its own process held (never released: the awaited
// write cannot go on while it blocks), then said "The secrets state could not be written … held by
// another scansync" and quit without recording what had landed: the next plan showed the secrets
// just sent as "not yet tracked" and the next apply sent them again.
//
// In-process, the interrupts pressed through Io.onInterrupt, the second while the first's write holds
// the lock (the lock file is there: it is held across several turns of the loop, each file operation).
import { existsSync, readFileSync } from 'node:fs'
import { setImmediate as turn } from 'node:timers/promises'
import { afterEach, expect, it, vi } from 'vitest'
import { applyOneLandedOneHeld } from './interrupt-setup.js'

afterEach(() => {
  vi.restoreAllMocks()
})

const PASSWORD = 'double-Secret-6c3a'
const [LANDED, HELD] = ['Double000001', 'Double000002']

it('a second interrupt while the first one records what landed still records it, and says nothing of another scansync', { timeout: 60_000 }, async () => {
  // The second interrupt ends the process: here, the exit is only noted.
  const exits: number[] = []
  vi.spyOn(process, 'exit').mockImplementation(((code: number) => void exits.push(code)) as never)
  // One write landed, the other in flight when the interrupts come.
  const { em, state, io, interrupt, running } = await applyOneLandedOneHeld({ landed: LANDED, held: HELD, password: PASSWORD, host: 'double' })
  const lock = `${state}.lock`

  interrupt()
  for (let i = 0; i < 5_000 && !existsSync(lock); i++) await turn()
  expect(existsSync(lock)).toBe(true)
  expect(existsSync(state)).toBe(false)
  interrupt()

  expect(exits).toEqual([130])
  expect(io.err()).toContain('Quit at once: 1 applied')
  expect(io.err()).not.toContain('could not be written')
  const recorded = Object.keys((JSON.parse(readFileSync(state, 'utf8')) as { resources: object }).resources)
  expect(recorded).toContain(`target/${LANDED}`)
  expect(readFileSync(state, 'utf8')).not.toContain(PASSWORD)

  await em.close()
  expect(await running).toBe(130)
})
