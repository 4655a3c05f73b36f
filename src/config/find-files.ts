import { readdir, stat } from 'node:fs/promises'
import { extname, join, relative, resolve } from 'node:path'
import { Diagnostic } from '../core/diagnostics.js'

const YAML_EXTENSIONS = new Set(['.yaml', '.yml'])
const isSkippedDirectory = (name: string) => name.startsWith('.') || name === 'node_modules'

export interface FoundFiles {
  files: string[]
  diagnostics: Diagnostic[]
}

/**
 * Every *.yaml / *.yml below each path (a path may also name one file), recursively, skipping
 * folders whose name starts with "." and node_modules. Sorted, so that runs are deterministic.
 */
export async function findConfigFiles(paths: string[], cwd = process.cwd()): Promise<FoundFiles> {
  const files = new Set<string>()
  const diagnostics: Diagnostic[] = []
  const display = (p: string) => relative(cwd, p) || '.'

  const walk = async (dir: string): Promise<void> => {
    let entries
    try {
      entries = await readdir(dir, { withFileTypes: true })
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      diagnostics.push({ file: display(dir), line: 1, column: 1, path: '', message: `cannot read the directory (${code ?? String(error)})` })
      return
    }
    for (const entry of entries) {
      const full = join(dir, entry.name)
      if (entry.isDirectory()) {
        if (!isSkippedDirectory(entry.name)) await walk(full)
      } else if ((entry.isFile() || entry.isSymbolicLink()) && YAML_EXTENSIONS.has(extname(entry.name).toLowerCase())) {
        files.add(display(full))
      }
    }
  }

  for (const path of paths.length > 0 ? paths : ['.']) {
    const full = resolve(cwd, path)
    let info
    try {
      info = await stat(full)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      const message = code === 'ENOENT' ? 'no such file or directory' : `cannot read it (${code ?? String(error)})`
      diagnostics.push({ file: path, line: 1, column: 1, path: '', message })
      continue
    }
    if (info.isDirectory()) {
      const before = files.size
      await walk(full)
      if (files.size === before) {
        diagnostics.push({
          file: display(full), line: 1, column: 1, path: '',
          message: `no configuration files (*.yaml, *.yml) found in ${display(full)}`,
        })
      }
    } else {
      files.add(display(full))
    }
  }
  return { files: [...files].sort(), diagnostics }
}
