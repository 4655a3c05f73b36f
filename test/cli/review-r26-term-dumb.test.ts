// TERM=dumb names a terminal that has no colours and no cursor moves (Emacs' M-x shell and
// M-x compile, some editors' run panes, a CI runner that gives a job a pseudo-terminal). scansync
// looked only at whether stderr and stdout were terminals: a plan there printed its colour codes as
// `^[[33m~ target …^[[39m`, and a run of more than 36 resources drew its progress bar with `ESC[G`
// and `ESC[2K`, shown as text ten times a second. Such a terminal now gets what a pipe gets: no
// colour (FORCE_COLOR still turns it on, as README says), and the progress lines of counts.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { colorEnabled } from '../../src/core/io.js'
import { startProgress } from '../../src/cli/progress.js'

const terminal = () => {
  let text = ''
  return { write: (chunk: string) => (text += chunk), isTTY: true, columns: 80, text: () => text }
}

afterEach(() => vi.useRealTimers())

describe('TERM=dumb', () => {
  it('no colour on such a terminal, unless FORCE_COLOR asks for it; NO_COLOR still wins', () => {
    expect(colorEnabled(terminal(), { TERM: 'dumb' })).toBe(false)
    expect(colorEnabled(terminal(), { TERM: 'dumb', FORCE_COLOR: '1' })).toBe(true)
    expect(colorEnabled(terminal(), { TERM: 'dumb', FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(false)
    expect(colorEnabled(terminal(), { TERM: 'xterm-256color' })).toBe(true)
    expect(colorEnabled(terminal(), {})).toBe(true)
  })

  it('the progress: lines of counts, no cursor sequence', async () => {
    vi.useFakeTimers()
    const out = terminal()
    const progress = await startProgress(out, 600, 'Applying', { env: { TERM: 'dumb', SCANSYNC_PROGRESS_MS: '1000' } })
    progress.tick(120)
    vi.advanceTimersByTime(1000)
    progress.stop()
    expect(out.text()).toBe('Applying: 120 of 600 done (1 s)\n')
  })

  it('another terminal keeps its bar', async () => {
    const out = terminal()
    const progress = await startProgress(out, 600, 'Applying', { env: { TERM: 'xterm' } })
    progress.stop()
    expect(out.text()).toMatch(/^\u001b\[GApplying \[/)
  })
})
