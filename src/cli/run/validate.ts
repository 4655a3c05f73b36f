import { formatDiagnostic, groupRepeated } from '../../core/diagnostics.js'
import { loadConfig } from '../../config/load.js'
import { secretValues } from '../../secrets/redact.js'
import { configurationProblems, defaultPathHint } from './config-diagnostics.js'
import { EXIT } from '../../core/exit-codes.js'
import { Io, line, withRedaction } from '../../core/io.js'
import { learnSecrets } from '../../secrets/known.js'
import { REGISTRY } from '../../resources/index.js'
import { guard } from './errors.js'

export interface ValidateOptions {
  paths: string[]
  quiet?: boolean
}

export async function runValidate(options: ValidateOptions, given: Io): Promise<number> {
  const io = withRedaction(given)
  // An error (stdout on a full disk: core/io.ts wholeWrites) in scansync's one line, as plan's.
  return guard(io, {}, async () => {
    const loaded = await loadConfig(options.paths, { env: io.env, cwd: io.cwd, secretsOf: (resources) => secretValues([...resources]) })
    const { config } = loaded
    learnSecrets(io.redaction, config.resources)
    const diagnostics = groupRepeated(configurationProblems(loaded))
    if (diagnostics.length > 0) {
      for (const diagnostic of diagnostics) line(io.stderr, formatDiagnostic(diagnostic))
      const hint = defaultPathHint(options.paths, diagnostics, config.files, 'validate')
      if (hint) line(io.stderr, hint)
      line(io.stderr, `${diagnostics.length} ${diagnostics.length === 1 ? 'error' : 'errors'}; nothing was sent.`)
      return EXIT.error
    }
    if (!options.quiet) {
      const counts = countByKind(config.resources.map((r) => r.kind))
      line(io.stdout, `Valid: ${config.files.length} ${config.files.length === 1 ? 'file' : 'files'}, ${counts}.`)
    }
    return EXIT.ok
  })
}

function countByKind(kinds: string[]): string {
  return REGISTRY.map((kind) => {
    const n = kinds.filter((k) => k === kind.name).length
    return `${n} ${n === 1 ? kind.name : kind.list}`
  }).join(', ')
}
