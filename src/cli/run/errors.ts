import { ScansyncError } from '../../core/errors.js'
import { EXIT } from '../../core/exit-codes.js'
import { Io, line } from '../../core/io.js'

/**
 * The one place that turns an error into words and an exit code. Errors of ours carry a message
 * fit to print; anything else is a bug, shown with its stack only under --debug. Redaction and
 * the escaping of control characters are io's output step (core/io.ts withRedaction).
 */
export async function guard(io: Io, options: { debug?: boolean }, run: () => Promise<number>): Promise<number> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof ScansyncError) {
      line(io.stderr, `Error: ${error.message}`)
    } else {
      const message = error instanceof Error ? error.message : String(error)
      line(io.stderr, `Error: unexpected failure: ${message}`)
      if (options.debug && error instanceof Error && error.stack) line(io.stderr, error.stack)
      else line(io.stderr, 'Run again with --debug for details, and please report it.')
    }
    return EXIT.error
  }
}
