/**
 * oclif's entry points, required as the CommonJS modules they are. Imported from ES modules,
 * Node would first scan each one's source for its exports (cjs-module-lexer: the lexer's loop
 * then gets hot enough for V8 to optimise it, on a helper thread, in every run); required, they
 * load as they do inside oclif.
 *
 * For a run bin/run.js is sure plans (plan, drift, apply), it has loaded oclif from its one
 * bundled file (dist/cli/oclif.bundle.cjs) and left it under `OCLIF_BUNDLED`: the command must be
 * a subclass of that copy's Command, the one that copy's `run` parses and runs.
 */
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

/** Where bin/run.js leaves the bundled copy of oclif it runs. */
const OCLIF_BUNDLED = Symbol.for('scansync.oclif.bundled')

interface OclifParts {
  Command: typeof import('@oclif/core/command').Command
  Args: typeof import('@oclif/core/args')
  Errors: typeof import('@oclif/core/errors')
  Flags: typeof import('@oclif/core/flags')
}

const bundled = (globalThis as Record<symbol, OclifParts | undefined>)[OCLIF_BUNDLED]

export const Command: OclifParts['Command'] = bundled?.Command ?? (require('@oclif/core/command') as typeof import('@oclif/core/command')).Command
export const Args: OclifParts['Args'] = bundled?.Args ?? (require('@oclif/core/args') as OclifParts['Args'])
export const Errors: OclifParts['Errors'] = bundled?.Errors ?? (require('@oclif/core/errors') as OclifParts['Errors'])
export const Flags: OclifParts['Flags'] = bundled?.Flags ?? (require('@oclif/core/flags') as OclifParts['Flags'])
