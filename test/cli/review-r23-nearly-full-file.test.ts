// Output appended to a file with less room left than it (a disk nearly full, a file at its size
// limit). `scansync completion bash > ~/.local/share/bash-completion/completions/scansync` wrote
// its script in one write to Node's stream for a file, as far as the system took it, and dropped
// the rest: a cut script (every new shell then fails to source it), exit 0. `scansync --version`,
// written at once by bin/run.js without a stream, was cut the same way. Every other output to a
// file is written whole or says it could not be (core/io.ts wholeWrites, review round 22); so are
// these now. The file size limit (`ulimit -f`, 1,024-byte blocks in bash) stands for the nearly
// full disk: the first write takes what fits, the next fails with EFBIG.
import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { tempdir } from '../e2e/helpers.js'
import { BIN, collectOutput, ROOT } from '../helpers/cli.js'

beforeAll(ensureBuilt, 120_000)

const FULL = 'Error: cannot write to standard output (EFBIG): what it holds is incomplete\n'

/** `scansync ARGS >> FILE` where FILE already holds `held` and may grow to 1,024 bytes: what it then holds, what was said, the exit code. */
async function appendToNearlyFull(args: string[], held: string): Promise<{ text: string; stderr: string; code: number | null }> {
  const file = join(tempdir(), 'out')
  writeFileSync(file, held)
  const child = spawn('bash', ['-c', 'ulimit -f 1 && exec "$0" "$@" >> "$OUT"', process.execPath, BIN, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', OUT: file },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  const { code, stderr } = await collectOutput(child)
  return { text: readFileSync(file, 'utf8'), stderr, code }
}

describe.concurrent('output to a file with less room than it', () => {
  it.each([['bash'], ['zsh']])('scansync completion %s >> file: says so, exit 1', async (shell) => {
    const { text, stderr, code } = await appendToNearlyFull(['completion', shell], '#'.repeat(1000))
    expect(text.length).toBe(1024)
    expect(stderr).toBe(FULL)
    expect(code).toBe(1)
  })

  it.each([['--version'], ['-v'], ['version']])('scansync %s >> file: says so, exit 1', async (arg) => {
    const { text, stderr, code } = await appendToNearlyFull([arg], 'x'.repeat(1010))
    expect(text).toMatch(/^x{1010}scansync\//)
    expect(stderr).toBe(FULL)
    expect(code).toBe(1)
  })
})
