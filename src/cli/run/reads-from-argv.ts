/**
 * bin/run.js starts the list reads of plan, drift and apply before oclif loads (about 100 ms of
 * a start-up), from its own reading of the command line. The reading is a guess that oclif
 * confirms: the command claims the reads only when what oclif parsed asks for the same reads
 * (early-reads.ts), else they are let go. So the guess only has to be safe, not complete: any
 * form it does not know for sure (help, `--`, an unknown or repeated flag, `-fjson`, a value
 * that looks like a flag) starts nothing, and whatever it starts reads only the lists of kinds
 * the named files declare.
 */
import { readFileSync } from 'node:fs'
import type { KindName } from '../../core/types.js'
import type { EarlyReadOptions } from './early-reads.js'

interface ManifestFlag {
  name: string
  char?: string
  type: 'boolean' | 'option'
  multiple?: boolean
  delimiter?: string
  options?: string[]
}

type Manifest = { commands: Record<string, { flags: Record<string, ManifestFlag> } | undefined> }

/** The commands that plan from the configuration (apply --plan reads a saved plan instead). */
const PLANNING = new Set(['plan', 'drift', 'apply'])

/**
 * The commands whose command lines, read for sure, run without oclif's plugins (help,
 * completion): every command but `emulator` (a server, started once), `completion` and `version`
 * (oclif's and its plugins' own ground).
 */
const WITHOUT_PLUGINS = new Set([...PLANNING, 'validate', 'audit', 'import', 'init', 'schema'])

/**
 * How bin/run.js goes on: `sure` when it read the command line for sure, with the reads it started
 * (plan, drift, apply); `bundled` when the run needs none of oclif's plugins, sure or not.
 */
export interface Start {
  sure: boolean
  bundled: boolean
  /** Lets the reads go if no command claims them (oclif refused the command line). */
  releaseReads?: () => Promise<void>
}

/**
 * Reads the command line against the manifest; for a plan, drift or apply read for sure, starts
 * the reads and resolves once they are sent. A sure command line runs oclif from its bundled file
 * without plugins (bin/run.js). Other command lines load nothing more (the client is imported
 * only here).
 */
export async function startFromArgv(argv: string[]): Promise<Start> {
  if (!WITHOUT_PLUGINS.has(argv[0] ?? '')) return { sure: false, bundled: false }
  const bundled = !asksOclifItself(argv)
  const manifest = JSON.parse(readFileSync(new URL('../../../oclif.manifest.json', import.meta.url), 'utf8')) as Manifest
  if (!PLANNING.has(argv[0]!)) {
    const sure = readSurely(argv, manifest) !== undefined
    return { sure, bundled: sure || bundled }
  }
  const options = guessReads(argv, manifest)
  if (!options) return { sure: false, bundled }
  const { releaseReadsAhead, startReadsAhead } = await import('./early-reads.js')
  await startReadsAhead(options)
  return { sure: true, bundled: true, releaseReads: releaseReadsAhead }
}

/**
 * Whether a command line may ask for what only oclif as installed does, with its plugins: help
 * (`-h`, `--help`, anywhere: it may be a flag's value, or not), the version, or anything after
 * `--`. Any other command line of these commands runs the command's own parser, as its bundled
 * copy does, and an unknown flag or a refused value is refused in the same words (about 0.3 s of
 * CPU less: some hundred files of oclif, not loaded to say so).
 */
const asksOclifItself = (argv: readonly string[]): boolean =>
  argv.some((arg) => arg === '--' || /^(-h|--help|-v|--version)(=|$)/.test(arg))

/** What oclif will parse from `argv`, as far as the reads go; undefined when unsure or when no reads would start. */
export function guessReads(argv: string[], manifest: Manifest): EarlyReadOptions | undefined {
  if (!PLANNING.has(argv[0] ?? '')) return undefined
  const sure = readSurely(argv, manifest)
  if (!sure) return undefined
  const { paths, values, booleans } = sure
  if (values.has('plan') || values.has('id')) return undefined
  const one = (name: string) => values.get(name)?.[0]
  const parallelism = one('parallelism')
  if (parallelism !== undefined && !/^[1-9]\d{0,2}$/.test(parallelism)) return undefined
  // A value oclif's integer flag refuses would stop the run after the reads went out.
  const maxChanges = one('max-changes')
  if (maxChanges !== undefined && !/^\d{1,9}$/.test(maxChanges)) return undefined
  const kinds = values.get('kind')?.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean) as KindName[] | undefined
  return {
    paths,
    kinds,
    apiUrl: one('api-url'),
    parallelism: parallelism === undefined ? undefined : Number(parallelism),
    insecureHttp: booleans.has('insecure-http') || undefined,
    debug: booleans.has('debug') || undefined,
  }
}

/** A command line as oclif will parse it: the command, its paths, each flag's values, the booleans given. */
export interface SureCommandLine {
  command: string
  paths: string[]
  values: Map<string, string[]>
  booleans: Set<string>
}

/** `argv` as oclif will parse it, when this reading is sure of it (see the top of this file); undefined otherwise. */
export function readSurely(argv: string[], manifest: Manifest): SureCommandLine | undefined {
  const [command, ...rest] = argv
  const flags = WITHOUT_PLUGINS.has(command ?? '') ? manifest.commands[command!]?.flags : undefined
  if (!flags) return undefined
  const byName = new Map<string, ManifestFlag>()
  for (const flag of Object.values(flags)) {
    byName.set(`--${flag.name}`, flag)
    if (flag.char) byName.set(`-${flag.char}`, flag)
  }
  const paths: string[] = []
  const values = new Map<string, string[]>()
  const booleans = new Set<string>()
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]
    if (arg === '-' || !arg.startsWith('-')) {
      paths.push(arg)
      continue
    }
    const equals = arg.startsWith('--') ? arg.indexOf('=') : -1
    const flag = byName.get(equals > 0 ? arg.slice(0, equals) : arg)
    if (!flag) return undefined
    if (flag.type === 'boolean') {
      if (equals > 0 || booleans.has(flag.name)) return undefined
      booleans.add(flag.name)
      continue
    }
    const value = equals > 0 ? arg.slice(equals + 1) : rest[++i]
    if (value === undefined || value.startsWith('-')) return undefined
    // A value oclif refuses (`--format xml`): not sure; oclif stops the run before any read would be used.
    if (flag.options && !(flag.delimiter ? value.split(flag.delimiter).map((v) => v.trim()) : [value]).every((v) => flag.options!.includes(v))) return undefined
    const given = values.get(flag.name) ?? []
    if (given.length > 0 && !flag.multiple) return undefined
    values.set(flag.name, [...given, value])
  }
  return { command: command!, paths, values, booleans }
}
