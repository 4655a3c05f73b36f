import { ScansyncError } from '../../core/errors.js'
import { EXIT } from '../../core/exit-codes.js'
import { Io, line } from '../../core/io.js'

/**
 * The one place that turns an error into words and an exit code. Errors of ours carry a message
 * fit to print; anything else is a bug, shown with its stack only under --debug.
 */
export async function guard(io: Io, options: { debug?: boolean; redact?: (text: string) => string }, run: () => Promise<number>): Promise<number> {
  try {
    return await run()
  } catch (error) {
    const redact = options.redact ?? ((text: string) => text)
    if (error instanceof ScansyncError) {
      line(io.stderr, `Error: ${redact(error.message)}`)
      // The knob is named where the problem shows (the message comes from the client, which knows no variables).
      if (/no complete answer from the service within /.test(error.message)) line(io.stderr, 'SCANSYNC_TIMEOUT_MS sets the time allowed per attempt, in milliseconds (default 30000).')
    } else {
      const message = error instanceof Error ? error.message : String(error)
      line(io.stderr, `Error: unexpected failure: ${redact(message)}`)
      if (options.debug && error instanceof Error && error.stack) line(io.stderr, redact(error.stack))
      else line(io.stderr, 'Run again with --debug for details, and please report it.')
    }
    return EXIT.error
  }
}
