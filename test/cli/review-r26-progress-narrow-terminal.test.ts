// The progress bar of plan, apply and import on a terminal narrower than the bar (a 40-column tmux
// pane, a phone's SSH client): `Reading [` + 30 cells + `] 60/60` is 46 columns, so each frame
// wrapped onto a second row, the next frame was drawn from that row, and every redraw (10 a
// second) scrolled the screen by a line, leaving broken frames above the summary that the final
// erase of one row could not remove. A frame now fits the terminal's width.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startProgress } from '../../src/cli/progress.js'

const terminal = (columns: number | undefined) => {
  let text = ''
  return { write: (chunk: string) => (text += chunk), isTTY: true, columns, text: () => text }
}

// eslint-disable-next-line no-control-regex
const frames = (text: string) => text.split(/\u001b\[G/).filter((frame) => frame !== '' && frame !== '\u001b[2K')

afterEach(() => vi.useRealTimers())

describe('the progress bar on a narrow terminal', () => {
  for (const columns of [40, 30, 20, 12]) {
    it(`${columns} columns: every frame fits on one row`, async () => {
      const out = terminal(columns)
      const progress = await startProgress(out, 600, 'Reading assets', { env: {} })
      progress.tick(300)
      progress.stop()
      expect(frames(out.text()).length).toBeGreaterThan(0)
      for (const frame of frames(out.text())) expect([...frame].length).toBeLessThan(columns)
      expect(out.text().endsWith('\u001b[G\u001b[2K')).toBe(true)
    })
  }

  it('a wide terminal (or one whose width is unknown) keeps the bar of 30 cells', async () => {
    for (const columns of [300, undefined]) {
      const out = terminal(columns)
      const progress = await startProgress(out, 600, 'Applying', { env: {} })
      progress.stop()
      expect(frames(out.text())).toEqual([`Applying [${'░'.repeat(30)}] 0/600`])
    }
  })

  it('a terminal narrowed while the bar runs: the next frame fits the new width', async () => {
    vi.useFakeTimers()
    const out = terminal(120)
    const progress = await startProgress(out, 600, 'Applying', { env: {} })
    out.columns = 30
    progress.tick(600)
    vi.advanceTimersByTime(100)
    progress.stop()
    const last = frames(out.text()).at(-1)!
    expect([...last].length).toBeLessThan(30)
    expect(last).toMatch(/600\/600$/)
  })
})
