'use strict'
const { readFileSync } = require('node:fs')
const { join } = require('node:path')
const { fileURLToPath, pathToFileURL } = require('node:url')

/**
 * How oclif loads the CLI. scansync has no plugins of the user's own: without `userPlugins:
 * false`, oclif loads any plugin a package.json in the user's data directory
 * (~/.local/share/scansync) lists, and runs its hooks in every command. For a command line that
 * runs a command other than completion, version or the emulator and asks for no help nor version
 * (`withoutPlugins`: bin/run.js read it, src/cli/run/reads-from-argv.ts), the package's own
 * plugins (help, autocomplete) are left out too:
 * oclif would read both plugins' package.json and manifest, and match every dependency against
 * their names, about 20 ms of every plan, for commands those runs never use. (scripts/code-cache.js runs a
 * command with the same options to warm oclif's code cache.)
 */
function oclifOptions(withoutPlugins) {
  const root = fileURLToPath(new URL('..', pathToFileURL(__filename)))
  if (!withoutPlugins) return { root, userPlugins: false }
  const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  return { root, userPlugins: false, pjson: { ...pjson, oclif: { ...pjson.oclif, plugins: [] } } }
}

module.exports = { oclifOptions }
