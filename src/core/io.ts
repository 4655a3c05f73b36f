import type { Env } from './types.js'

export interface OutputStream {
  write(text: string): unknown
  isTTY?: boolean
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
}

/**
 * A stream that writes as `stream` does, with every occurrence of `secret` replaced: the last line
 * of defence for the API token, whatever prints it (a path argument that is the token, a value in
 * a file). Everything but `write` is the stream's own, so progress bars still work.
 */
export function scrubbing<T extends NodeJS.WriteStream>(stream: T, secret: string | undefined): T {
  if (!secret || secret.length < 4) return stream
  const scrub = (chunk: unknown) => (typeof chunk === 'string' && chunk.includes(secret) ? chunk.split(secret).join('(redacted)') : chunk)
  return new Proxy(stream, {
    get(target, property) {
      if (property === 'write') return (chunk: unknown, ...rest: unknown[]) => (target.write as (...args: unknown[]) => boolean)(scrub(chunk), ...rest)
      const value = Reflect.get(target, property, target) as unknown
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

export function processIo(): Io {
  const token = process.env.SCANSYNC_API_TOKEN
  return {
    stdout: scrubbing(process.stdout, token),
    stderr: scrubbing(process.stderr, token),
    stdinIsTTY: Boolean(process.stdin.isTTY),
    env: process.env,
    cwd: process.cwd(),
    async prompt(question) {
      const { createInterface } = await import('node:readline/promises')
      const rl = createInterface({ input: process.stdin, output: process.stderr })
      try {
        return await rl.question(question)
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
  }
}

/** NO_COLOR wins, then FORCE_COLOR, then whether the stream is a terminal. */
export function colorEnabled(stream: OutputStream, env: Env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false'
  return Boolean(stream.isTTY)
}

export const line = (stream: OutputStream, text = '') => stream.write(text + '\n')
