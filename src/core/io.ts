import { fstatSync, writeSync } from 'node:fs'
import { isatty } from 'node:tty'
import { ScansyncError } from './errors.js'
import { redactionFor, type Redaction } from './redaction.js'
import type { Env } from './types.js'

export interface OutputStream {
  write(text: string): unknown
  isTTY?: boolean
  /** A terminal's width (Node's TTY stream has it, and keeps it current when the window is resized). */
  columns?: number
}

/** What a command may touch of the outside world; tests pass their own. */
export interface Io {
  stdout: OutputStream
  stderr: OutputStream
  stdinIsTTY: boolean
  env: Env
  cwd: string
  /** Asks a question on the terminal; only called when stdinIsTTY. */
  prompt?(question: string): Promise<string>
  /** Registers a handler for Ctrl-C (and SIGTERM); returns a function that removes it. */
  onInterrupt?(handler: () => void): () => void
  /** The output step (see withRedaction); absent on an Io that does not have it yet. */
  redaction?: Redaction
}

export type RedactedIo = Io & { redaction: Redaction }

/**
 * A stream that writes as `stream` does, each text passed through `transform` first (the
 * output step). Everything but `write` is the stream's own, so progress bars still work.
 */
function through<T extends OutputStream>(stream: T, transform: (text: string) => string): T {
  const pass = (chunk: unknown) => (typeof chunk === 'string' ? transform(chunk) : chunk instanceof Uint8Array ? transform(Buffer.from(chunk).toString('utf8')) : chunk)
  return new Proxy(stream, {
    get(target, property) {
      if (property === 'write') return (chunk: unknown, ...rest: unknown[]) => (target.write as (...args: unknown[]) => unknown)(pass(chunk), ...rest)
      const value = Reflect.get(target, property, target) as unknown
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/**
 * The Io with the output step in place: stdout and stderr pass every text through its
 * redaction (knowing the API token and the state key from the start, and the secrets the use case adds as it
 * learns them). Every use case starts with it, so an Io a test passes is redacted too; an Io
 * that has it already is returned as it is.
 */
export function withRedaction(io: Io): RedactedIo {
  if (io.redaction) return io as RedactedIo
  const redaction = redactionFor(io.env)
  return { ...io, redaction, stdout: through(io.stdout, redaction.output), stderr: through(io.stderr, redaction.output) }
}

/**
 * A file or device as stdout (`plan --format json > plan.json`): written whole, or an error said
 * in words. Node's stream for one writes once and drops what the system did not take: on a disk
 * nearly full, a plan was cut short and the run exited 0; on one full, a stack trace, exit 1.
 * Pipes and terminals are Node's (a pipe's short writes are finished; a closed one, bin/run.js).
 */
export function wholeWrites<T extends OutputStream>(stream: T, fd: number, name: string, write: (fd: number, data: Uint8Array) => number = writeSync): T {
  let plain: boolean
  try {
    const info = fstatSync(fd)
    plain = isatty(fd) || info.isFIFO() || info.isSocket()
  } catch {
    plain = true
  }
  if (plain) return stream
  return new Proxy(stream, {
    get(target, property) {
      if (property === 'write')
        return (chunk: unknown, ...rest: unknown[]) => {
          const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : (chunk as Uint8Array)
          for (let done = 0; done < bytes.length; ) {
            try {
              done += write(fd, bytes.subarray(done))
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code === 'EAGAIN') continue
              throw new ScansyncError(`cannot write to ${name} (${(error as NodeJS.ErrnoException).code ?? String(error)}): what it holds is incomplete`)
            }
          }
          const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined
          callback?.()
          return true
        }
      const value = Reflect.get(target, property, target) as unknown
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

export function processIo(): Io {
  return withRedaction({
    stdout: wholeWrites(process.stdout, 1, 'standard output'),
    stderr: process.stderr,
    stdinIsTTY: Boolean(process.stdin.isTTY),
    env: process.env,
    cwd: process.cwd(),
    async prompt(question) {
      const { createInterface } = await import('node:readline/promises')
      const rl = createInterface({ input: process.stdin, output: process.stderr })
      // Ctrl-C at the question is the key readline reads on a terminal, not a signal: sent as the
      // signal it is anywhere else, to the run's interrupt handlers (it was an "unexpected failure", exit 1).
      rl.on('SIGINT', () => process.kill(process.pid, 'SIGINT'))
      try {
        return await rl.question(question)
      } catch (error) {
        // Ctrl-D: the input ended with no answer, so not "yes". The terminal echoed no line break:
        // end the question's line, so that what follows is not read as the answer typed.
        if ((error as Error).name === 'AbortError') {
          process.stderr.write('\n')
          return ''
        }
        throw error
      } finally {
        rl.close()
      }
    },
    // Ctrl-C, and SIGTERM as a CI runner sends it to cancel a job: both stop an apply the same way.
    onInterrupt(handler) {
      process.on('SIGINT', handler)
      process.on('SIGTERM', handler)
      return () => {
        process.off('SIGINT', handler)
        process.off('SIGTERM', handler)
      }
    },
  })
}

/** NO_COLOR wins, then FORCE_COLOR, then whether the stream is a terminal that draws colours. */
export function colorEnabled(stream: OutputStream, env: Env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false'
  return drawingTerminal(stream, env)
}

/**
 * A terminal that takes colours and cursor moves: not TERM=dumb (Emacs' M-x shell and M-x compile,
 * some editors' run panes), which shows them as text; such a terminal gets what a pipe gets.
 */
export function drawingTerminal(stream: OutputStream, env: Env): boolean {
  return Boolean(stream.isTTY) && env.TERM !== 'dumb'
}

export const line = (stream: OutputStream, text = '') => stream.write(text + '\n')
