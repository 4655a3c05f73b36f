// Shared set-up of the end-to-end tests: the emulator in-process on 127.0.0.1, configurations in
// temporary directories, the CLI (real or in-process) pointed at the emulator.
import { readFileSync, writeFileSync } from 'node:fs'
import { beforeAll } from 'vitest'
import { join } from 'node:path'
import { runApply, type ApplyOptions } from '../../src/cli/run/apply.js'
import { runPlan, type PlanOptions } from '../../src/cli/run/plan.js'
import type { Emulator, RecordedRequest } from '../../src/emulator/index.js'
import { captureIo, ROOT, runCli, type CapturedIo, type CliResult } from '../helpers/cli.js'
import { copyConfiguration, emulatorWith, exampleSeed, temporaryDirectory } from '../helpers/emulator.js'
import { ensureBuilt } from '../config/helpers.js'

export { ROOT, runCli, captureIo, exampleSeed, type CliResult, type CapturedIo }

/** Long and unusual, so that a search for it in any output cannot miss it or hit by chance. */
export const TOKEN = 'e2e-Tok3n-7f9c2a51d8b64e0f'


/**
 * The variables the example configuration reads (each has a demo fallback equal to the seed's
 * value; these differ, so a first apply has secrets to send).
 */
export const EXAMPLE_SECRETS = {
  SHOP_LOGIN_PASSWORD: 'login-Secret-4d1f8a',
  SHOP_BASIC_AUTH_PASSWORD: 'basic-Secret-9b7e2c',
  PAYMENTS_CLIENT_SECRET: 'client-Secret-3a6f0d',
} as const

/** Retries fast, so that fault tests take milliseconds, not the real service's seconds. */
export const FAST_HTTP = {
  SCANSYNC_TIMEOUT_MS: '5000',
  SCANSYNC_MAX_ATTEMPTS: '4',
  SCANSYNC_BACKOFF_MS: '1',
  SCANSYNC_RETRY_AFTER_LIMIT_MS: '5000',
} as const

/** An emulator on 127.0.0.1 with the example seed (unless given another), closed after the test file. */
export const emulator = emulatorWith(TOKEN)

/** A temporary directory holding the given files (folders created), removed after the test file. */
export const tempdir = (files: Record<string, string> = {}): string => temporaryDirectory('scansync-e2e-', files)

/** A copy of examples/config in a temporary directory (so that .scansync/ lands there). */
export function exampleConfig(): string {
  const dir = tempdir()
  copyConfiguration(dir)
  return dir
}

/** The environment of a run against `em`. */
export const envFor = (em: Emulator, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> => ({
  SCANSYNC_API_URL: em.url,
  SCANSYNC_API_TOKEN: TOKEN,
  ...FAST_HTTP,
  ...extra,
})

/** The real CLI against `em`, in `cwd`. */
export const cli = (em: Emulator, cwd: string, args: string[], extra: Record<string, string | undefined> = {}): Promise<CliResult> =>
  runCli(args, { cwd, env: envFor(em, extra) })

export interface InProcessRun {
  code: number
  out: string
  err: string
  io: CapturedIo
}

/** `scansync plan` (or drift) in-process. */
export async function plan(em: Emulator, cwd: string, options: Partial<PlanOptions> = {}, extra: Record<string, string | undefined> = {}): Promise<InProcessRun> {
  const io = captureIo({ env: envFor(em, extra), cwd })
  const code = await runPlan({ mode: 'plan', paths: ['.'], format: 'text', ...options }, io)
  return { code, out: io.out(), err: io.err(), io }
}

/** `scansync apply --auto-approve` in-process (unless options say otherwise). */
export async function apply(
  em: Emulator,
  cwd: string,
  options: Partial<ApplyOptions> = {},
  extra: Record<string, string | undefined> = {},
  ioOptions: { tty?: boolean; answer?: string } = {},
): Promise<InProcessRun> {
  const io = captureIo({ env: envFor(em, extra), cwd, ...ioOptions })
  // As the CLI: no path argument is an empty list (a saved plan takes none).
  const code = await runApply({ paths: options.plan ? [] : ['.'], format: 'text', autoApprove: true, ...options }, io)
  return { code, out: io.out(), err: io.err(), io }
}

export const isWrite = (r: RecordedRequest) => r.method === 'PATCH' || r.method === 'PUT'
export const writes = (em: Emulator): RecordedRequest[] => em.requests().filter(isWrite)
export const writePaths = (em: Emulator): string[] => writes(em).map((r) => `${r.method} ${r.path}`).sort()

/**
 * The example configuration applied once against a service that obfuscates its secrets: a
 * repository as its first apply leaves it, with the secrets state (`state`) holding records.
 */
export async function appliedWithState(): Promise<{ em: Emulator; dir: string; state: string }> {
  const em = await emulator({ obfuscate: true })
  const dir = exampleConfig()
  const applied = await cli(em, dir, ['apply', '--auto-approve'], EXAMPLE_SECRETS)
  if (applied.code !== 0) throw new Error(`the first apply failed (exit ${applied.code}): ${applied.stderr}`)
  return { em, dir, state: join(dir, '.scansync', 'state.json') }
}

/** As appliedWithState, then the state made one written before key ids (keyed by the token): what the next apply with a key re-keys. */
export async function appliedWithLegacyState(): Promise<{ em: Emulator; dir: string; state: string }> {
  const applied = await appliedWithState()
  const legacy = JSON.parse(readFileSync(applied.state, 'utf8')) as Record<string, unknown>
  delete legacy.key_id
  writeFileSync(applied.state, JSON.stringify(legacy))
  return applied
}

/**
 * One emulator for all of a file's tests, started once the build is there (the tests drive the
 * built CLI): a getter, as the emulator exists only once the file's `beforeAll` has run.
 */
export function sharedEmulator(): () => Emulator {
  let started: Emulator | undefined
  beforeAll(async () => {
    await ensureBuilt()
    started = await emulator()
  }, 120_000)
  return () => {
    if (!started) throw new Error('the shared emulator is asked for before beforeAll started it')
    return started
  }
}
