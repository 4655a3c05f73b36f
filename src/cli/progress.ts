import type { Env } from '../core/types.js'
import type { OutputStream } from '../core/io.js'

/** Progress bars appear only on a terminal, and only for more than a few dozen items. */
export const PROGRESS_THRESHOLD = 36

/** Without a terminal (CI logs), a line of counts this often while the work lasts. */
export const PROGRESS_LINE_MS = 5_000

export interface Progress {
  tick(count?: number): void
  stop(): void
}

export interface ProgressOptions {
  /** SCANSYNC_PROGRESS_MS sets the interval of the lines written without a terminal. */
  env?: Env
}

const silent: Progress = { tick() {}, stop() {} }

/**
 * On a terminal, a bar redrawn in place and erased when done (nothing is left behind the summary).
 * Elsewhere a line of counts every few seconds, so that a CI log shows a long run is alive;
 * a run shorter than the interval prints nothing.
 */
export async function startProgress(stream: OutputStream, total: number, label: string, options: ProgressOptions = {}): Promise<Progress> {
  if (total <= 0) return silent
  if (stream.isTTY) return total > PROGRESS_THRESHOLD ? terminalBar(stream, total, label) : silent
  return periodicLines(stream, total, label, lineInterval(options.env ?? process.env))
}

function lineInterval(env: Env): number {
  const value = Number(env.SCANSYNC_PROGRESS_MS)
  return env.SCANSYNC_PROGRESS_MS !== undefined && env.SCANSYNC_PROGRESS_MS !== '' && Number.isInteger(value) && value > 0 ? value : PROGRESS_LINE_MS
}

function periodicLines(stream: OutputStream, total: number, label: string, intervalMs: number): Progress {
  const started = Date.now()
  let done = 0
  const timer = setInterval(() => {
    const seconds = Math.round((Date.now() - started) / 1000)
    stream.write(`${label}: ${Math.min(done, total)} of ${total} done (${seconds} s)\n`)
  }, intervalMs)
  timer.unref()
  return {
    tick(count = 1) {
      done += count
    },
    stop() {
      clearInterval(timer)
    },
  }
}

const BAR_WIDTH = 30
const REDRAW_MS = 100
/**
 * To the line's first column: a cursor sequence, not a carriage return, which the output step
 * (core/redaction.ts) escapes as it does every control character a service's text could hold;
 * this one it keeps as scansync's own, with the erase of the line.
 */
const LINE_START = '\x1b[G'
const ERASE_LINE = '\x1b[2K'

function terminalBar(stream: OutputStream, total: number, label: string): Progress {
  let done = 0
  let stopped = false
  const draw = () => {
    const filled = Math.round((Math.min(done, total) / total) * BAR_WIDTH)
    stream.write(`${LINE_START}${label} [${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}] ${Math.min(done, total)}/${total}`)
  }
  draw()
  const timer = setInterval(draw, REDRAW_MS)
  timer.unref()
  return {
    tick(count = 1) {
      done += count
    },
    stop() {
      if (stopped) return
      stopped = true
      clearInterval(timer)
      // Erase the bar's line: the summary that follows starts on a clean line.
      stream.write(LINE_START + ERASE_LINE)
    },
  }
}
