import { EXIT } from '../core/exit-codes.js'
import { line, type Io } from '../core/io.js'
import { parseFaultSpec } from './faults.js'
import { readSeedFile } from './seed-file.js'
import { DEFAULT_TOKEN, startEmulator } from './server.js'
import type { EmulatorOptions } from './types.js'

export interface EmulatorCommandOptions {
  host: string
  port: number
  seed?: string
  token: string
  latency?: number
  obfuscate?: boolean
  fault?: string[]
  faultSeed?: number
  allowRemote?: boolean
}

/**
 * `scansync emulator`: prints `listening on <url>` (the only line on stdout), serves until
 * `stop` settles, then closes. Exit 0 after a clean stop, 1 when it could not start.
 */
export async function runEmulator(options: EmulatorCommandOptions, io: Io, stop: Promise<unknown>): Promise<number> {
  let settings: EmulatorOptions
  try {
    // Clients send `Authorization: JWT <token>`: an empty token (a variable left unset) or one with
    // whitespace can never be sent, and every request would get 401. The token is not repeated.
    if (options.token === '') throw new Error('--token is empty: give the token clients will send, or leave --token out for the default demo-token')
    if (/\s/.test(options.token)) throw new Error('--token contains whitespace, which `Authorization: JWT <token>` cannot carry: give a token without spaces')
    settings = {
      host: options.host,
      port: options.port,
      token: options.token,
      latencyMs: options.latency,
      obfuscate: options.obfuscate,
      faults: (options.fault ?? []).map(parseFaultSpec),
      faultSeed: options.faultSeed,
      allowRemote: options.allowRemote,
      seed: options.seed === undefined ? undefined : await readSeedFile(options.seed),
    }
  } catch (error) {
    line(io.stderr, `emulator: ${(error as Error).message}`)
    return EXIT.error
  }
  let emulator
  try {
    emulator = await startEmulator(settings)
  } catch (error) {
    line(io.stderr, `emulator: could not start: ${(error as Error).message}`)
    return EXIT.error
  }
  line(io.stdout, `listening on ${emulator.url}`)
  line(io.stderr, `emulator: serving ${summary(settings)}; ${settings.token === DEFAULT_TOKEN ? `token ${DEFAULT_TOKEN} (the default)` : 'token from --token'}; stop with Ctrl-C`)
  await stop
  await emulator.close()
  return EXIT.ok
}

function summary({ seed = {} }: EmulatorOptions): string {
  const count = (items: unknown[] | undefined, one: string, many: string) => `${items?.length ?? 0} ${items?.length === 1 ? one : many}`
  return [count(seed.targets, 'target', 'targets'), count(seed.assets, 'asset', 'assets'), count(seed.agents, 'agent', 'agents'), count(seed.teams, 'team', 'teams')].join(', ')
}
