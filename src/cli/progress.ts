import type { OutputStream } from '../core/io.js'

/** Progress bars appear only on a terminal, and only for more than a few dozen items. */
export const PROGRESS_THRESHOLD = 36

export interface Progress {
  tick(count?: number): void
  stop(): void
}

const silent: Progress = { tick() {}, stop() {} }

export async function startProgress(stream: OutputStream, total: number, label: string): Promise<Progress> {
  if (!stream.isTTY || total <= PROGRESS_THRESHOLD) return silent
  const { default: cliProgress } = await import('cli-progress')
  const bar = new cliProgress.SingleBar(
    { stream: stream as NodeJS.WritableStream, format: `${label} [{bar}] {value}/{total}`, clearOnComplete: true, hideCursor: true },
    cliProgress.Presets.shades_classic,
  )
  bar.start(total, 0)
  let done = 0
  return {
    tick(count = 1) {
      done += count
      bar.update(Math.min(done, total))
    },
    stop() {
      bar.stop()
    },
  }
}
