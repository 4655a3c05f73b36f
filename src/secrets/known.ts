import type { Redaction } from '../core/redaction.js'
import type { DesiredResource } from '../core/types.js'
import { secretValues } from './redact.js'

/**
 * Teaches the run's redaction the secrets of these resources. A value the configuration writes
 * itself (the fallback of `${VAR:-value}`) is hidden on stdout and stderr, but may stay in a file
 * that copies the configuration's templates (a saved plan keeps `${VAR:-value}` as written).
 */
export function learnSecrets(redaction: Redaction, resources: DesiredResource[]): void {
  for (const resource of resources) {
    const values = secretValues([resource])
    if (values.length === 0) continue
    const templates = [...resource.templates.values()]
    for (const value of values) {
      redaction.add([value], { inFiles: !templates.some((template) => template.includes(value)) })
    }
  }
}
