import { existsSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { SCHEMAS_DIR } from '../../schema/files.js'

const SCHEMA_IN_PACKAGE = join('schemas', 'config.schema.json')

/**
 * The `$schema` path for files in `directory`, relative and inside the project, so that the line
 * works on every machine that checks the repository out: the schema itself when it lies in the
 * project (scansync in the repository's node_modules, or a directory inside a clone), else the
 * project's node_modules/scansync copy (with `npm link` the schema's real path is the clone's).
 * Undefined when the project has none: a machine-specific absolute path, or one leaving the
 * repository, is never written.
 */
export function schemaReference(directory: string, schemaFile = join(SCHEMAS_DIR, 'config.schema.json')): string | undefined {
  const root = projectRoot(directory)
  const candidates = [schemaFile, join(root, 'node_modules', 'scansync', SCHEMA_IN_PACKAGE)]
  const inProject = candidates.find((file, i) => isInside(root, file) && (i === 0 || existsSync(file)))
  if (inProject === undefined) return undefined
  const path = relative(resolve(directory), inProject).split(sep).join('/')
  return path.startsWith('.') ? path : `./${path}`
}

/** The first line of a configuration file written in `directory`, without its `#`. */
export function schemaComment(directory: string): string {
  const reference = schemaReference(directory)
  if (reference !== undefined) return `yaml-language-server: $schema=${reference}`
  return 'Editor schema: install scansync in this repository (npm install --save-dev scansync) and run init or import again, or point yaml-language-server at the output of `npx scansync schema`.'
}

function isInside(root: string, file: string): boolean {
  const fromRoot = relative(root, file)
  return fromRoot !== '' && !fromRoot.startsWith('..') && !isAbsolute(fromRoot)
}

/** The nearest directory at or above `directory` holding .git or package.json (or `directory`). */
function projectRoot(directory: string): string {
  let current = resolve(directory)
  for (;;) {
    if (existsSync(join(current, '.git')) || existsSync(join(current, 'package.json'))) return current
    const parent = dirname(current)
    if (parent === current) return resolve(directory)
    current = parent
  }
}
