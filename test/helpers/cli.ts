import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
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

/** Runs the real CLI (the built dist/, as users do) in a child process. */
export function runCli(args: string[], options: { env?: Record<string, string | undefined>; cwd?: string; input?: string; onSpawn?(child: ReturnType<typeof spawn>): void } = {}): Promise<CliResult> {
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
