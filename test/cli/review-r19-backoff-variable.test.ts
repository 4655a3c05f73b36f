// README, "Environment": SCANSYNC_BACKOFF_MS is the base of the backoff, the wait capped at 20 times
// it, and "a value out of range is an error naming the variable". A base the variable's own check
// accepts (up to 2147483647, as its error says) but whose twentyfold cap Node's timers cannot wait
// (above 107374182) stopped plan, apply and drift with "the backoff maximum (ms) must be a number
// from 0 to 2147483647, got 4000000000": a name the user never wrote and a number they never gave.
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleConfig } from '../e2e/helpers.js'

describe.concurrent('SCANSYNC_BACKOFF_MS: every value its check accepts is taken', () => {
  it.each([['200000000'], ['2147483647']])('SCANSYNC_BACKOFF_MS=%s', async (value) => {
    const em = await emulator()
    const { code, stdout, stderr } = await cli(em, exampleConfig(), ['plan', '.', '-q'], { SCANSYNC_BACKOFF_MS: value })
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(stdout).toBe('Plan: 3 to change, 5 unchanged.\n')
  })

  it('a value out of range is still an error naming the variable', async () => {
    const em = await emulator()
    const { code, stderr } = await cli(em, exampleConfig(), ['plan', '.', '-q'], { SCANSYNC_BACKOFF_MS: '2147483648' })
    expect(code).toBe(1)
    expect(stderr).toBe('Error: SCANSYNC_BACKOFF_MS must be a number from 0 to 2147483647 (got "2147483648")\n')
  })
})
