// `scansync --version >> versions.txt` with less room left than its line (a disk nearly full, a
// file at its size limit): the line, written at once by bin/run.js without a stream, was written
// as far as the system took it and the rest dropped: a cut line, exit 0. Every other output to a
// file is written whole or says it could not be (core/io.ts wholeWrites, review round 22). The
// file size limit (`ulimit -f`, 1,024-byte blocks in bash) stands for the nearly full disk: the
// first write takes what fits, the next fails with EFBIG.
import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { tempdir } from '../e2e/helpers.js'
import { BIN, collectOutput, ROOT } from '../helpers/cli.js'

beforeAll(ensureBuilt, 120_000)

describe.concurrent('the version written to a file with less room than its line', () => {
  it.each([['--version'], ['-v'], ['version']])('scansync %s >> file: says so, exit 1', async (arg) => {
    const file = join(tempdir(), 'versions.txt')
    writeFileSync(file, 'x'.repeat(1010))
    const child = spawn('bash', ['-c', 'ulimit -f 1 && exec "$0" "$1" "$2" >> "$3"', process.execPath, BIN, arg, file], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    const { code, stderr } = await collectOutput(child)
    expect(readFileSync(file, 'utf8')).toMatch(/^x{1010}scansync\//)
    expect(stderr).toBe('Error: cannot write to standard output (EFBIG): what it holds is incomplete\n')
    expect(code).toBe(1)
  })
})
