import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { format } from 'node:util'
import type { Io } from '../../src/core/io.js'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const BIN = `${ROOT}bin/run.js`

export interface CliResult {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

/** What a child process printed, and how it ended. */
export function collectOutput(child: ChildProcess): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    let stdout = ''
    let stderr = ''
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
  })
}

export interface CliOptions {
  env?: Record<string, string | undefined>
  cwd?: string
  /** Written to the child's stdin (a spawned run). */
  input?: string
  onSpawn?(child: ChildProcess): void
  /** Run `node bin/run.js` in a child process even where an in-process run would do. */
  spawn?: boolean
}

/**
 * Runs the real CLI (the built dist/, oclif parsing included). In this process where that proves
 * the same as a child would (see `runsInProcess`); in a child process `node bin/run.js` otherwise,
 * or when `spawn` asks for it. A child costs about 0.25 s of CPU; an in-process run, milliseconds.
 */
export async function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  if (runsInProcess(args, options)) {
    const result = await inProcess(args, options)
    if (result !== undefined) return result
  }
  return spawnCli(args, options)
}

/** Runs `node bin/run.js ARGS` in a child process, with only PATH, HOME and NO_COLOR (and `env`). */
export function spawnCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  const result = collectOutput(child)
  child.stdin.end(options.input)
  options.onSpawn?.(child)
  return result
}

/**
 * The commands whose whole behaviour is oclif parsing and a use case writing through `Io`. Help,
 * version and completion, `emulator` (a server until a signal), runs given stdin or watched as a
 * child, stay in a child process.
 */
const IN_PROCESS_COMMANDS = new Set(['validate', 'schema', 'plan', 'drift', 'apply', 'import', 'init'])
const runsInProcess = (args: string[], options: CliOptions) =>
  !options.spawn && options.input === undefined && options.onSpawn === undefined && IN_PROCESS_COMMANDS.has(args[0] ?? '') && !args.some((a) => /^(-h|--help|-v|--version)$/.test(a))

let queue: Promise<unknown> = Promise.resolve()

/**
 * oclif's `run` on the built CLI in this process, with the environment, working directory,
 * stdout, stderr and exit code of a child: swapped in for the run and restored after, so runs
 * wait for one another. Undefined when oclif threw: bin/run.js decides how such an error prints
 * and exits, so the caller runs a child for it (nothing was done yet: oclif throws while parsing).
 */
function inProcess(args: string[], options: CliOptions): Promise<CliResult | undefined> {
  const next = queue.then(() => swappedRun(args, options))
  queue = next.catch(() => undefined)
  return next
}

async function swappedRun(args: string[], options: CliOptions): Promise<CliResult | undefined> {
  const { run } = await import('@oclif/core')
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...options.env }
  const saved = { env: { ...process.env }, cwd: process.cwd(), exitCode: process.exitCode, stdout: process.stdout.write, stderr: process.stderr.write, console: { log: console.log, error: console.error, warn: console.warn } }
  let stdout = ''
  let stderr = ''
  const writer = (append: (text: string) => void) =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'))
      const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined
      callback?.()
      return true
    }) as typeof process.stdout.write
  // A child's stdio are pipes; this worker's may be the developer's terminal (prompts, progress bars, colours).
  const streams = [process.stdin, process.stdout, process.stderr]
  const ttys = streams.map((stream) => Object.getOwnPropertyDescriptor(stream, 'isTTY'))
  const setEnv = (values: Record<string, string | undefined>) => {
    for (const key of Object.keys(process.env)) delete process.env[key]
    for (const [key, value] of Object.entries(values)) if (value !== undefined) process.env[key] = value
  }
  try {
    setEnv(env)
    process.chdir(options.cwd ?? ROOT)
    process.exitCode = undefined
    for (const stream of streams) Object.defineProperty(stream, 'isTTY', { value: false, configurable: true, writable: true })
    process.stdout.write = writer((text) => (stdout += text))
    process.stderr.write = writer((text) => (stderr += text))
    console.log = (...values: unknown[]) => (stdout += format(...values) + '\n')
    console.error = console.warn = (...values: unknown[]) => (stderr += format(...values) + '\n')
    try {
      // As bin/run.js loads it: no plugins from the user's data directory.
      await run(args, { root: ROOT, userPlugins: false })
    } catch {
      return undefined
    }
    return { code: Number(process.exitCode ?? 0), signal: null, stdout, stderr }
  } finally {
    streams.forEach((stream, i) => (ttys[i] ? Object.defineProperty(stream, 'isTTY', ttys[i]) : delete (stream as { isTTY?: boolean }).isTTY))
    process.stdout.write = saved.stdout
    process.stderr.write = saved.stderr
    Object.assign(console, saved.console)
    process.exitCode = saved.exitCode
    process.chdir(saved.cwd)
    setEnv(saved.env)
  }
}

export interface CapturedIo extends Io {
  out(): string
  err(): string
}

/** An Io for running a command in-process, capturing what it prints. */
export function captureIo(options: { env?: Record<string, string | undefined>; cwd?: string; tty?: boolean; answer?: string } = {}): CapturedIo {
  let out = ''
  let err = ''
  return {
    stdout: { write: (text: string) => (out += text), isTTY: false },
    stderr: { write: (text: string) => (err += text), isTTY: false },
    stdinIsTTY: options.tty ?? false,
    env: { NO_COLOR: '1', ...options.env },
    cwd: options.cwd ?? ROOT,
    prompt: async () => options.answer ?? '',
    out: () => out,
    err: () => err,
  }
}
