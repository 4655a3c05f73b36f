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
import type { Input, ParserOutput } from '@oclif/core/interfaces'

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

const OclifCommand: OclifParts['Command'] = bundled?.Command ?? (require('@oclif/core/command') as typeof import('@oclif/core/command')).Command
export const Args: OclifParts['Args'] = bundled?.Args ?? (require('@oclif/core/args') as OclifParts['Args'])
export const Errors: OclifParts['Errors'] = bundled?.Errors ?? (require('@oclif/core/errors') as OclifParts['Errors'])
export const Flags: OclifParts['Flags'] = bundled?.Flags ?? (require('@oclif/core/flags') as OclifParts['Flags'])

/**
 * oclif's Command, with one rule of scansync's command line: a switch (a boolean flag) takes no
 * value. oclif splits `--force=false` into the switch, turned on, and a word `false` it takes as
 * an argument (a PATH, init's DIR); it is refused instead, naming the switch. After `--` every
 * word is an argument.
 */
/** oclif's FlagOutput and ArgOutput, which its package does not export. */
type Parsed = { [name: string]: unknown }

export abstract class Command extends OclifCommand {
  protected override async parse<F extends Parsed, B extends Parsed, A extends Parsed>(options?: Input<F, B, A>, argv: string[] = this.argv): Promise<ParserOutput<F, B, A>> {
    const flags: Record<string, { type?: string; char?: string } | undefined> = { ...(options ?? this.ctor).flags }
    for (const arg of argv) {
      if (arg === '--') break
      const name = /^--([^=]+)=/.exec(arg)?.[1]
      if (name !== undefined && flags[name]?.type === 'boolean') throw new Errors.CLIError(`--${name} takes no value: write --${name} alone to turn it on, or leave it out`)
      // `-q=false`: oclif said 'unknown flag -=false'.
      const char = /^-([^-=])=/.exec(arg)?.[1]
      if (char !== undefined && Object.values(flags).some((flag) => flag?.type === 'boolean' && flag.char === char)) {
        throw new Errors.CLIError(`-${char} takes no value: write -${char} alone to turn it on, or leave it out`)
      }
    }
    return super.parse(options, argv)
  }
}
