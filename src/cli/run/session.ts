import { createClient, type ServiceClient } from '../../client/index.js'
import { UsageError } from '../../core/errors.js'
import type { Io, RedactedIo } from '../../core/io.js'
import { lineBesideProgress } from '../progress.js'
import { appVersion } from './version.js'

export interface ConnectionOptions {
  apiUrl?: string
  parallelism?: number
  insecureHttp?: boolean
  debug?: boolean
  /** Per-request timeout; the default suits the real service. */
  timeoutMs?: number
}

export const DEFAULT_PARALLELISM = 8

export interface Session {
  client: ServiceClient
  token: string
  apiUrl: string
  parallelism: number
}

/** The token, from the environment only: never from the command line. */
export function readToken(io: Io): string {
  const token = io.env.SCANSYNC_API_TOKEN
  if (!token) throw new UsageError(`SCANSYNC_API_TOKEN is ${token === '' ? 'empty' : 'not set'}: export the service API token in it (scansync never takes the token on the command line)`)
  return token
}

export function resolveParallelism(options: ConnectionOptions, io: Io): number {
  const raw = options.parallelism ?? io.env.SCANSYNC_PARALLELISM
  if (raw === undefined || raw === '') return DEFAULT_PARALLELISM
  const value = Number(raw)
  const source = options.parallelism === undefined ? 'SCANSYNC_PARALLELISM' : '--parallelism'
  if (!Number.isInteger(value) || value < 1 || value > 256) throw new UsageError(`${source} must be a whole number from 1 to 256 (got ${shownValue(raw)})`)
  return value
}

/**
 * The service's URL, from `--api-url` or else SCANSYNC_API_URL; an empty one is named as such
 * (`--api-url ""` with the variable set is not a missing URL). `missing`: said when neither is given.
 */
export function serviceUrl(options: Pick<ConnectionOptions, 'apiUrl'>, io: Io, missing = 'no service URL: pass --api-url URL or set SCANSYNC_API_URL'): string {
  // Trimmed once, here, as the client parses it: a CI secret often ends with a line break, which
  // would otherwise break the messages that repeat the URL and be saved in a plan file.
  const flag = options.apiUrl?.trim()
  if (flag === '') throw new UsageError('--api-url is empty: give the service URL, or leave the flag out to use SCANSYNC_API_URL')
  const apiUrl = flag ?? io.env.SCANSYNC_API_URL?.trim()
  if (apiUrl === '') throw new UsageError('SCANSYNC_API_URL is empty: set it to the service URL, or pass --api-url URL')
  if (apiUrl === undefined) throw new UsageError(missing)
  return apiUrl
}

export function openSession(options: ConnectionOptions, io: RedactedIo): Session {
  const apiUrl = serviceUrl(options, io)
  const token = readToken(io)
  const parallelism = resolveParallelism(options, io)
  // Read by the progress lines (src/cli/progress.ts), deep in a run: checked here with the others, before any request.
  envNumber(io, 'SCANSYNC_PROGRESS_MS', { whole: true, min: 1 })
  const client = createClient({
    baseUrl: apiUrl,
    token,
    userAgent: `scansync/${appVersion()}`,
    parallelism,
    insecureHttp: options.insecureHttp,
    timeoutMs: options.timeoutMs ?? envNumber(io, 'SCANSYNC_TIMEOUT_MS', { whole: true, min: 1 }),
    maxAttempts: envNumber(io, 'SCANSYNC_MAX_ATTEMPTS', { whole: true, min: 1 }),
    retryAfterCeilingMs: envNumber(io, 'SCANSYNC_RETRY_AFTER_LIMIT_MS'),
    // The wait is capped at 20 times the base, and at what Node's timers can wait: every base the variable's check accepts is taken.
    backoff: envNumber(io, 'SCANSYNC_BACKOFF_MS') === undefined ? undefined : { baseMs: envNumber(io, 'SCANSYNC_BACKOFF_MS')!, maxMs: Math.min(20 * envNumber(io, 'SCANSYNC_BACKOFF_MS')!, MAX_MS) },
    redaction: io.redaction,
    proxyEnv: io.env,
    // On a terminal, a line of its own beside the progress bar (which has no line break of its own).
    debug: options.debug ? (text) => lineBesideProgress(io.stderr, io.env, `debug: ${text}`) : undefined,
  })
  return { client, token, apiUrl, parallelism }
}

/** The largest wait Node's timers take (about 24.8 days). */
const MAX_MS = 2_147_483_647

/** Tuning knobs for the HTTP behaviour (timeouts, attempts, backoff), from the environment; errors name the variable. */
function envNumber(io: Io, name: string, bounds: { whole?: boolean; min?: number; max?: number } = {}): number | undefined {
  const raw = io.env[name]
  if (raw === undefined || raw === '') return undefined
  const value = Number(raw)
  const min = bounds.min ?? 0
  const max = bounds.max ?? MAX_MS
  if (!Number.isFinite(value) || value < min || value > max || (bounds.whole && !Number.isInteger(value))) {
    throw new UsageError(`${name} must be a ${bounds.whole ? 'whole number' : 'number'} from ${min} to ${max} (got ${shownValue(raw)})`)
  }
  return value
}

/** A value from the environment, shortened and printable (it is not a secret, but may be anything). */
const shownValue = (raw: string | number) => JSON.stringify(String(raw).slice(0, 40))
