// `scansync completion bash > ~/.local/share/bash-completion/completions/scansync` with less room
// left than the script (a disk nearly full, a file at its size limit): the script, written in one
// write to Node's stream for a file, was written as far as the system took it and the rest
// dropped: a cut script (every new shell then fails to source it), exit 0. `schema > file` and a
// command's own output are written whole or say they could not be (core/io.ts wholeWrites,
// review round 22); so is the completion script now. The file size limit (`ulimit -f`, 1,024-byte
// blocks in bash) stands for the nearly full disk: the first write takes what fits, the next
// fails with EFBIG.
import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { tempdir } from '../e2e/helpers.js'
import { BIN, collectOutput, ROOT } from '../helpers/cli.js'

beforeAll(ensureBuilt, 120_000)

describe.concurrent('the completion script written to a file with less room than it', () => {
  it.each([['bash'], ['zsh']])('scansync completion %s >> file: says so, exit 1', async (shell) => {
    const file = join(tempdir(), 'scansync')
    writeFileSync(file, '#'.repeat(1000))
    const child = spawn('bash', ['-c', 'ulimit -f 1 && exec "$0" "$1" completion "$2" >> "$3"', process.execPath, BIN, shell, file], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    const { code, stderr } = await collectOutput(child)
    expect(readFileSync(file, 'utf8').length).toBe(1024)
    expect(stderr).toBe('Error: cannot write to standard output (EFBIG): what it holds is incomplete\n')
    expect(code).toBe(1)
  })
})
