import { isWeakSecret, type Redaction } from '../core/redaction.js'
import type { DesiredResource, JsonObject } from '../core/types.js'
import type { ResourceKind } from '../resources/kind.js'
import { liveSecrets, secretValues } from './redact.js'

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

/**
 * Teaches the run's redaction the secrets a live resource holds in clear (a service that does not
 * obfuscate answers a flagged value as it is). A comparison masks a value of the same resource that
 * quotes one (build-plan.ts, maskQuotedSecrets); another resource's value may quote it too (an
 * asset's comment, an agent's name, a target no file declares, holding a target's password), and
 * the output step is the one place that sees every value. Only the secrets it can substitute: a
 * weak one (short or common) would make the output withhold every text the service wrote.
 */
export function learnLiveSecrets(redaction: Redaction | undefined, kind: ResourceKind, live: JsonObject): void {
  if (redaction === undefined) return
  const strong = liveSecrets(kind, live).filter((secret) => !isWeakSecret(secret))
  if (strong.length > 0) redaction.add(strong)
}
