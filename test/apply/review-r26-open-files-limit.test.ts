// An apply at --parallelism 256 (the documented maximum) under a limit of open files lower than
// that (`ulimit -n 256`, macOS's default; CI containers set their own): every connection past the
// limit failed at once with EMFILE, not retried, and each such write was reported as
// `could not reach the service at …: EMFILE; it may or may not have been applied: run scansync plan
// to see` (Apply: 236 applied, 164 failed). A socket that could not be opened sent nothing; and
// another attempt, with fewer requests in flight, reuses a connection already open.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error the benchmark's fixtures are plain JavaScript without types
import { buildAccount, writeConfig } from '../../bench/fixtures.js'
import { mayHaveLanded } from '../../src/apply/executor.js'
import { ServiceUnavailableError } from '../../src/client/index.js'
import { describeNetworkError, isRetryableError } from '../../src/client/retry-policy.js'
import type { EmulatorSeed } from '../../src/emulator/index.js'
import { BIN, collectOutput } from '../helpers/cli.js'
import { emulator, envFor, tempdir } from '../e2e/helpers.js'

const emfile = () => Object.assign(new Error('connect EMFILE 127.0.0.1:1 - Local (undefined:undefined)'), { code: 'EMFILE', syscall: 'connect' })

describe('a connection that could not be opened: too many open files', () => {
  it('was never sent, is retried, and is said in words with what to change', () => {
    expect(mayHaveLanded(new ServiceUnavailableError('x', { cause: emfile() }))).toBe(false)
    expect(mayHaveLanded(new ServiceUnavailableError('x', { cause: Object.assign(new Error('ENFILE'), { code: 'ENFILE' }) }))).toBe(false)
    expect(isRetryableError(emfile())).toBe(true)
    expect(describeNetworkError(emfile())).toMatch(/^too many open files \(EMFILE\).*--parallelism.*ulimit -n/)
  })

  it.runIf(process.platform !== 'win32')('apply --parallelism 256 under `ulimit -n 128` applies every change', async () => {
    const account = buildAccount({ targets: 0, assets: 0, agents: 400, differEvery: 1 }) as { seed: EmulatorSeed; config: Record<string, unknown[]> }
    const em = await emulator({ seed: account.seed })
    const dir = tempdir()
    writeConfig(join(dir, 'config'), { agents: account.config.agents }, 100)
    const child = spawn('/bin/sh', ['-c', 'ulimit -n 128 && exec "$0" "$@"', process.execPath, BIN, 'apply', '--auto-approve', '-q', '--parallelism', '256', 'config'], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: dir, NO_COLOR: '1', ...envFor(em, { SCANSYNC_BACKOFF_MS: '20' }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const run = await collectOutput(child)
    expect(run.stderr).not.toMatch(/EMFILE/)
    expect(run.stdout).toMatch(/Apply: 400 applied, 0 failed/)
    expect(run.code, run.stdout + run.stderr).toBe(0)
  }, 60_000)
})
