// What bin/run.js and oclif print themselves (the version, help, the completion script) written
// to a file on a full disk: `scansync completion bash > ~/.local/share/bash-completion/…`. A
// command's own output says so in one line and exits 1 (review round 22, core/io.ts); these
// printed a Node stack trace from bin/run.js (`if (error?.code !== 'EPIPE') throw error`). They
// now say it in the same words, exit 1. /dev/full stands for the full disk.
import { spawn } from 'node:child_process'
import { closeSync, openSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { BIN, collectOutput, ROOT, type CliResult } from '../helpers/cli.js'

beforeAll(ensureBuilt, 120_000)

function intoFullDisk(args: string[]): Promise<CliResult> {
  const device = openSync('/dev/full', 'w')
  try {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' }, stdio: ['ignore', device, 'pipe'] })
    return collectOutput(child)
  } finally {
    closeSync(device)
  }
}

describe.concurrent('oclif\'s and bin/run.js\'s own output to a full disk', () => {
  it.each([['completion', 'bash'], ['--version'], ['version'], ['--help'], ['plan', '--help']].map((args) => [args.join(' '), args] as const))('scansync %s > full disk: one line, exit 1, no stack trace', async (_, args) => {
    const { code, stderr } = await intoFullDisk([...args])
    expect(stderr).toBe('Error: cannot write to standard output (ENOSPC): what it holds is incomplete\n')
    expect(code).toBe(1)
  })
})
