import { Args, Errors, Flags } from './oclif.js'
import type { KindName } from '../core/types.js'
import { isKindName, KIND_CHOICES, KIND_NAMES } from '../resources/index.js'

/**
 * A list flag: `--kind a,b` or `--kind a --kind b`. One value per occurrence (not greedy), so that
 * `plan --kind agent config` keeps `config` as the PATH.
 */
export const listFlag = { multiple: true, multipleNonGreedy: true, delimiter: ',' } as const

/** Flags every command that talks to the service takes. */
export const connectionFlags = {
  'api-url': Flags.string({ description: 'Base URL of the service (or SCANSYNC_API_URL). The token comes only from SCANSYNC_API_TOKEN.', helpValue: 'URL' }),
  // The range is in the description too: a value out of it is refused with "See scansync COMMAND --help".
  parallelism: Flags.integer({ description: 'Requests in flight at once, 1–256 (or SCANSYNC_PARALLELISM; default 8).', helpValue: 'N', min: 1, max: 256 }),
  'insecure-http': Flags.boolean({ description: 'Allow an http:// URL to a host that is not loopback (the token then crosses the network in clear).' }),
  debug: Flags.boolean({ description: 'Log each request to stderr (the token is never shown).' }),
}

/** Flags of plan, drift and apply. */
export const planFlags = {
  ...connectionFlags,
  format: Flags.string({ char: 'f', description: 'Output format.', options: ['text', 'json', 'markdown', 'github'], default: 'text' }),
  kind: Flags.string({ description: `Only these kinds (comma-separated or repeated): ${KIND_NAMES.join(', ')}.`, helpValue: KIND_NAMES.join(','), ...listFlag, options: [...KIND_NAMES] }),
  id: Flags.string({ description: 'Only these resources (comma-separated or repeated).', helpValue: 'ID', ...listFlag }),
  state: Flags.string({ description: 'The secrets state file (default: .scansync/state.json in the configuration directory).', helpValue: 'FILE' }),
  quiet: Flags.boolean({ char: 'q', description: 'Text format: print only the summary line (and errors).' }),
}

/**
 * The configuration paths: variadic, so commands set `strict = false` and read them from argv.
 * Never read from stdin (oclif's default for an argument left out): a run with stdin holding text
 * (a git hook's refs, a `while read` loop's file) took all of it as one PATH.
 */
export const pathArgs = {
  path: Args.string({ description: 'Configuration files or directories, one or more (default: the current directory).', ignoreStdin: true }),
}

/** `--kind target,asset` (also repeatable) as a list of kinds. */
export function parseKinds(values: string[] | undefined): KindName[] | undefined {
  if (!values) return undefined
  const kinds = values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean)
  for (const kind of kinds) {
    if (!isKindName(kind)) throw new Errors.CLIError(`--kind ${kind}: expected ${KIND_CHOICES}`)
  }
  return kinds as KindName[]
}

/** `--id a,b` (also repeatable): an empty id (a comma too many) is a usage error, not an id no resource has. */
export function parseIds(values: string[] | undefined): string[] | undefined {
  if (!values) return undefined
  const ids = values.map((v) => v.trim())
  if (ids.some((id) => id === '')) throw new Errors.CLIError('--id holds an empty id: write ids separated by single commas, with none at the start or the end')
  return ids
}

/**
 * The value of a file or directory flag. An empty one (`--plan "$PLAN_FILE"` with the variable
 * unset) is refused: taken as the flag left out, `apply --plan ""` applied the configuration
 * instead of the saved plan, and `plan --out ""` saved nothing. `instead`: what to give.
 */
export function pathFlag(flag: string, value: string | undefined, instead: string): string | undefined {
  if (value === '') throw new Errors.CLIError(`--${flag} is empty: give ${instead}`)
  return value
}

/**
 * With variadic PATH arguments oclif passes unknown flags through as arguments; refuse them. What
 * follows `--` on the command line as typed (`raw`, the command's own argv) is a path whatever it
 * starts with, as everywhere else.
 */
export function pathArguments(argv: unknown[], raw: readonly string[] = []): string[] {
  const paths = argv.map(String)
  const dashes = raw.indexOf('--')
  const afterDashes = new Set(dashes < 0 ? [] : raw.slice(dashes + 1))
  const flag = paths.find((p) => p.startsWith('-') && p !== '-' && !afterDashes.has(p))
  // Without its value: `--token=…` is refused, and what was typed there is likely the token.
  if (flag) throw new Errors.CLIError(`unknown flag ${flag.replace(/=.*$/s, '=(redacted)')}; see --help`)
  // `scansync apply "$CONFIG_DIR"` with the variable unset: not the current directory (PATH left out), which may hold more than that configuration.
  if (paths.includes('')) throw new Errors.CLIError('a PATH is empty: name the configuration directory or file, or leave PATH out to read the current directory')
  return paths
}

type PlanFlagValues = {
  format: string
  kind?: string[]
  id?: string[]
  state?: string
  'api-url'?: string
  parallelism?: number
  'insecure-http'?: boolean
  debug?: boolean
  quiet?: boolean
}

/** The options plan, drift and apply share, from their parsed flags and arguments. */
export function planInputs(flags: PlanFlagValues, argv: unknown[], raw: readonly string[]) {
  return {
    paths: pathArguments(argv, raw),
    format: flags.format as 'text' | 'json' | 'markdown' | 'github',
    kinds: parseKinds(flags.kind),
    ids: parseIds(flags.id),
    state: pathFlag('state', flags.state, 'the secrets state file, or leave the flag out for .scansync/state.json in the configuration directory'),
    apiUrl: flags['api-url'],
    parallelism: flags.parallelism,
    insecureHttp: flags['insecure-http'],
    debug: flags.debug,
    quiet: flags.quiet,
  }
}
