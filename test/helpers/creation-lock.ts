// What happens while an apply waits for another apply's creation lock (src/apply/creation-guard.ts),
// run when the apply says it is waiting: a release timed after a read raced the apply on a busy
// machine (it reached the lock after the release, did not wait, and the test failed for that).
import type { CapturedIo } from './cli.js'

/** `io` with `run` called once, when the apply writes that it waits for another apply's creation lock. */
export function whenWaiting<T extends CapturedIo>(io: T, run: () => void): T {
  const write = io.stderr.write
  let done = false
  io.stderr.write = (text: string) => {
    const written = write(text)
    if (!done && text.includes('Waiting for another apply of this configuration, which is creating targets')) {
      done = true
      run()
    }
    return written
  }
  return io
}
