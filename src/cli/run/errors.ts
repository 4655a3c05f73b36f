import { ScansyncError } from '../../core/errors.js'
import { EXIT } from '../../core/exit-codes.js'
import { Io, line } from '../../core/io.js'
import type { ApplyReport } from '../../plan/model.js'
import { printable } from '../../render/value.js'

/**
 * The one place that turns an error into words and an exit code. Errors of ours carry a message
 * fit to print; anything else is a bug, shown with its stack only under --debug. Redaction and
 * the escaping of control characters are io's output step (core/io.ts withRedaction), which
 * keeps the terminal sequences scansync writes: a message, which may quote the service's words,
 * has its own escaped here (its line breaks kept).
 */
export async function guard(io: Io, options: { debug?: boolean; nothingSent?: () => boolean }, run: () => Promise<number>): Promise<number> {
  try {
    return await run()
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    if (error instanceof ScansyncError) {
      line(io.stderr, `Error: ${shown(io, message)}`)
      timeoutHint(io, [message])
    } else {
      line(io.stderr, `Error: unexpected failure: ${shown(io, message)}`)
      if (options.debug && error instanceof Error && error.stack) line(io.stderr, error.stack)
      // Only a command that has the flag passes `debug` (given or not): validate, init, schema and completion have none.
      else if ('debug' in options) line(io.stderr, 'Run again with --debug for details, and please report it.')
      else line(io.stderr, 'This is a bug in scansync: please report it, with the command you ran.')
    }
    // A command that writes says so when it failed before its first write: the user's first question.
    if (options.nothingSent?.() === true && !/nothing was sent/i.test(message)) line(io.stderr, 'Nothing was sent.')
    return EXIT.error
  }
}

/**
 * The knob is named where the problem shows (the message comes from the client, which knows no
 * variables): after an error, and after an apply's report whose changes timed out, were asked
 * to wait longer than the Retry-After limit, or found nothing listening at the base URL.
 */
export function timeoutHint(io: Io, messages: readonly string[]): void {
  if (messages.some((message) => /no complete answer from the service within /.test(message))) line(io.stderr, 'SCANSYNC_TIMEOUT_MS sets the time allowed per attempt, in milliseconds (default 30000).')
  if (messages.some((message) => /could not reach the service at .*: the service's TLS certificate .*not trusted/.test(message))) line(io.stderr, 'If your network uses its own certificate authority, set NODE_EXTRA_CA_CERTS to a PEM file holding its certificate.')
  if (messages.some((message) => /the service asked to wait .* before retrying \(limit /.test(message))) line(io.stderr, 'SCANSYNC_RETRY_AFTER_LIMIT_MS sets the longest Retry-After waited for, in milliseconds (default 120000).')
  // Nothing listens at the base URL (a port copied from the README, an emulator stopped, a host
  // misspelt): the address is the user's to check, not the service's to fix. Not through a proxy,
  // whose message names it instead.
  const nobody = messages.map((message) => /could not reach the service at (\S+): (?:connection refused \(ECONNREFUSED\)|host not found \(ENOTFOUND\))/.exec(message)).find((found) => found !== null)
  if (nobody) line(io.stderr, `Nothing answers at ${nobody[1]}: check SCANSYNC_API_URL (or --api-url); for the emulator, the address \`scansync emulator\` printed when it started (is it still running?).`)
}

/** A message redacted before its control characters are escaped: `\u0009` written for a tab would hide a secret from the output step. */
const shown = (io: Io, message: string): string => printable(io.redaction ? io.redaction.redact(message) : message, { keepNewlines: true })

export interface InterruptHandlers {
  /** The first Ctrl-C (or SIGTERM): stop starting new work; the run then ends with 130 on its own. */
  first(): void
  /** The second: say what is known and save what can be saved, synchronously; the process then ends with 130 at once. */
  second(): void
}

/**
 * The one place that maps interrupts to exit codes. Returns a function that stops listening.
 * `exit` is the process's (a second Ctrl-C cannot wait for requests in flight).
 */
export function onInterrupts(io: Io, handlers: InterruptHandlers, exit: (code: number) => never = (code) => process.exit(code)): () => void {
  let presses = 0
  const stop = io.onInterrupt?.(() => {
    presses++
    if (presses === 1) return handlers.first()
    try {
      handlers.second()
    } finally {
      exit(EXIT.interrupted)
    }
  })
  return stop ?? (() => undefined)
}

/** An apply's exit code: 130 when interrupted, 1 when any change failed or was not applied. */
export function applyExitCode(report: ApplyReport): number {
  if (report.interrupted) return EXIT.interrupted
  return report.summary.failed > 0 || report.summary.not_applied > 0 ? EXIT.error : EXIT.ok
}
