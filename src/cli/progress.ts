import type { Env } from '../core/types.js'
import { drawingTerminal, type OutputStream } from '../core/io.js'

/** Progress bars appear only on a terminal (not TERM=dumb), and only for more than a few dozen items. */
export const PROGRESS_THRESHOLD = 36

/** Without a terminal (CI logs), a line of counts this often while the work lasts. */
export const PROGRESS_LINE_MS = 5_000

export interface Progress {
  tick(count?: number): void
  stop(): void
}

export interface ProgressOptions {
  /** SCANSYNC_PROGRESS_MS sets the interval of the lines written without a terminal; TERM=dumb is none. */
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
  const env = options.env ?? process.env
  if (drawingTerminal(stream, env)) return total > PROGRESS_THRESHOLD ? terminalBar(stream, total, label) : silent
  return periodicLines(stream, total, label, lineInterval(env))
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

/**
 * `Applying [████░░░░] 120/600`, narrower than the terminal: a frame that wrapped onto a second row
 * was redrawn from that row, scrolling the screen a line per redraw. The bar shrinks to fit (read at
 * each frame: the window may be resized), goes when it has no room, and the label too when only the counts fit.
 */
function barFrame(label: string, done: number, total: number, columns: number | undefined): string {
  const counts = `${done}/${total}`
  // The last column is left free: a terminal may wrap as soon as it is written.
  const room = columns !== undefined && columns > 0 ? columns - 1 : Infinity
  const width = Math.min(BAR_WIDTH, room - label.length - counts.length - 4)
  if (width >= 3) {
    const filled = Math.round((done / total) * width)
    return `${label} [${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${counts}`
  }
  const words = `${label} ${counts}`
  return words.length <= room ? words : counts.slice(0, Math.max(room, 0))
}

/**
 * A line written to a stream a bar may be drawn on (--debug's lines, written while the requests
 * run): on a terminal it starts by erasing the row and going to its start, so that it takes the
 * bar's row instead of following its frame (the bar is redrawn below at its next frame).
 * Elsewhere, and with no bar drawn, the line as it is.
 */
export function lineBesideProgress(stream: OutputStream, env: Env, text: string): void {
  stream.write(drawingTerminal(stream, env) ? LINE_START + ERASE_LINE + text + '\n' : text + '\n')
}

function terminalBar(stream: OutputStream, total: number, label: string): Progress {
  let done = 0
  let stopped = false
  const draw = () => stream.write(LINE_START + barFrame(label, Math.min(done, total), total, stream.columns))
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
