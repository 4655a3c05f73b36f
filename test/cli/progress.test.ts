// Progress (issue 17): counts on stderr every few seconds without a terminal (the interval
// injected, fake timers: no wall clock), and on a terminal a bar erased when done.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startProgress } from '../../src/cli/progress.js'

const stream = (isTTY: boolean) => {
  let text = ''
  return { write: (chunk: string) => (text += chunk), isTTY, text: () => text }
}

afterEach(() => vi.useRealTimers())

describe('startProgress', () => {
  it('without a terminal: a line of counts per interval, nothing after stop', async () => {
    vi.useFakeTimers()
    const out = stream(false)
    const progress = await startProgress(out, 600, 'Applying', { env: { SCANSYNC_PROGRESS_MS: '2000' } })
    progress.tick(120)
    vi.advanceTimersByTime(1999)
    expect(out.text()).toBe('')
    vi.advanceTimersByTime(1)
    expect(out.text()).toBe('Applying: 120 of 600 done (2 s)\n')
    progress.tick(480)
    vi.advanceTimersByTime(2000)
    progress.stop()
    vi.advanceTimersByTime(10_000)
    expect(out.text().split('\n').filter(Boolean)).toEqual(['Applying: 120 of 600 done (2 s)', 'Applying: 600 of 600 done (4 s)'])
  })

  it('without a terminal: 5 s by default, and a run shorter than that prints nothing', async () => {
    vi.useFakeTimers()
    const out = stream(false)
    const progress = await startProgress(out, 3, 'Reading', { env: {} })
    vi.advanceTimersByTime(4999)
    progress.tick(3)
    progress.stop()
    vi.advanceTimersByTime(10_000)
    expect(out.text()).toBe('')
  })

  it('on a terminal: a bar, erased when done (no frame left before the summary)', async () => {
    const out = stream(true)
    const progress = await startProgress(out, 100, 'Applying', { env: {} })
    progress.tick(50)
    progress.stop()
    progress.stop()
    expect(out.text()).toMatch(/^\x1b\[GApplying \[/)
    expect(out.text().endsWith('\x1b[G\x1b[2K')).toBe(true)
    expect(out.text().split('\x1b[G\x1b[2K')).toHaveLength(2)
  })
})
