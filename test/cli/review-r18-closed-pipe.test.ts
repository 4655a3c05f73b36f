// Review round 18 (the command line as users type it): output piped to a reader that stops
// reading (`scansync --help | head -1`, `scansync version | grep -q …`) ends quietly, with the
// exit code of the run. Help, schema and completion exited 13 (Node's "unsettled top-level
// await": oclif's flush waited for a 'drain' a closed pipe never sends), which fails a CI step
// run with `set -o pipefail`; `version` printed an EPIPE stack trace and exited 1.
//
// The reader is gone before the run writes anything: the run's stdout is a named pipe whose
// reading end was closed before it started (no race with a reader like `head`).
import { spawn, spawnSync } from 'node:child_process'
import { closeSync, constants, openSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempdir } from '../e2e/helpers.js'
import { BIN, collectOutput, ROOT, type CliResult } from '../helpers/cli.js'

function runIntoClosedPipe(args: string[]): Promise<CliResult> {
  const pipe = join(tempdir(), 'stdout')
  expect(spawnSync('mkfifo', [pipe]).status).toBe(0)
  const reader = openSync(pipe, constants.O_RDONLY | constants.O_NONBLOCK)
  const writer = openSync(pipe, constants.O_WRONLY)
  closeSync(reader)
  try {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' },
      stdio: ['ignore', writer, 'pipe'],
    })
    return collectOutput(child)
  } finally {
    closeSync(writer)
  }
}

describe.concurrent('a reader that stopped reading', () => {
  for (const args of [['--help'], ['plan', '--help'], ['help', 'apply'], ['schema'], ['completion', 'bash'], ['version'], ['--version']]) {
    it(`scansync ${args.join(' ')} ends quietly with exit 0`, async () => {
      const { code, signal, stderr } = await runIntoClosedPipe(args)
      expect(stderr).toBe('')
      expect([code, signal]).toEqual([0, null])
    })
  }

  it('a usage error still says what is wrong on stderr and exits 1', async () => {
    const { code, stderr } = await runIntoClosedPipe(['plan', '--fromat', 'json'])
    expect(stderr).toBe('Error: unknown flag --fromat (did you mean --format?). See scansync plan --help.\n')
    expect(code).toBe(1)
  })
})
