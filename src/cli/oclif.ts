/**
 * oclif's entry points, required as the CommonJS modules they are. Imported from ES modules,
 * Node would first scan each one's source for its exports (cjs-module-lexer: the lexer's loop
 * then gets hot enough for V8 to optimise it, on a helper thread, in every run); required, they
 * load as they do inside oclif.
 */
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

export const { Command } = require('@oclif/core/command') as typeof import('@oclif/core/command')
export const Args = require('@oclif/core/args') as typeof import('@oclif/core/args')
export const Errors = require('@oclif/core/errors') as typeof import('@oclif/core/errors')
export const Flags = require('@oclif/core/flags') as typeof import('@oclif/core/flags')
