import { dirname } from 'node:path'
import { Diagnostic, sortDiagnostics } from '../../core/diagnostics.js'
import { FOREIGN_FILE } from '../../config/foreign-file.js'
import type { LoadResult } from '../../config/load.js'
import { checkDeclared } from '../../plan/declared-checks.js'

/**
 * Every problem found in one run: the loader's, and the checks across a resource's lists (a
 * label declared twice) for every resource that loaded, so that fixing one error does not
 * reveal the next.
 */
export function configurationProblems(loaded: LoadResult): Diagnostic[] {
  const declared = checkDeclared(loaded.config.resources)
  return declared.length === 0 ? loaded.diagnostics : sortDiagnostics([...loaded.diagnostics, ...declared])
}

/**
 * Advice when PATH was left to its default and other tools' YAML was read: the command again,
 * with the directories that do hold configuration (or DIR).
 */
export function defaultPathHint(paths: string[], problems: Diagnostic[], files: string[], command: string): string | undefined {
  if (paths.length > 0) return undefined
  const foreign = new Set(problems.filter((d) => d.message.startsWith(FOREIGN_FILE)).map((d) => d.file))
  if (foreign.size === 0) return undefined
  // The directories holding configuration files, each once, without those inside another: each
  // one's own parents looked up (comparing every pair took minutes for 20,000 folders).
  const dirs = [...new Set(files.filter((f) => !foreign.has(f)).map((f) => dirname(f)))].filter((d) => d !== '.').sort()
  const listed = new Set(dirs)
  const homes = dirs.filter((d) => !parentsOf(d).some((parent) => listed.has(parent)))
  const example = homes.length > 0 ? homes.join(' ') : 'DIR'
  return `No PATH was given, so every *.yaml / *.yml below the current directory was read, other tools' files included. Pass the configuration directory: scansync ${command} ${example}`
}

/** `a/b/c` -> `a`, `a/b`: the folders a folder is inside of, as the file list writes them. */
function parentsOf(dir: string): string[] {
  const parents: string[] = []
  for (let i = dir.indexOf('/', 1); i !== -1; i = dir.indexOf('/', i + 1)) parents.push(dir.slice(0, i))
  return parents
}
