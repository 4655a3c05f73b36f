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
    const templates = [...new Set(resource.templates.values())]
    // Looked for once in the templates joined by a character the value does not hold (a match
    // cannot straddle two), not in each template in turn: a target with 16,000 `${VAR}` headers
    // made 256 million calls, 1.8 s of every run.
    const joined = templates.join('\0')
    for (const value of values) {
      const written = value.includes('\0') ? templates.some((template) => template.includes(value)) : joined.includes(value)
      redaction.add([value], { inFiles: !written })
    }
  }
}

/**
 * The secrets a live resource holds in clear (a service that does not obfuscate answers a flagged
 * value as it is), added to `into`. A comparison masks a value of the same resource that quotes
 * one (build-plan.ts, maskQuotedSecrets); another resource's value may quote it too (an asset's
 * comment, an agent's name, a target no file declares, holding a target's password), and the
 * output step is the one place that sees every value: learnLiveSecrets teaches it them. Only the
 * secrets it can substitute: a weak one (short or common) would make the output withhold every
 * text the service wrote. `held`: the resource's liveSecrets, when the caller has them already.
 */
export function collectLiveSecrets(into: string[], kind: ResourceKind, live: JsonObject, held: readonly string[] = liveSecrets(kind, live)): void {
  for (const secret of held) if (!isWeakSecret(secret)) into.push(secret)
}

/**
 * Teaches the run's redaction the live secrets collected (collectLiveSecrets), all at once, as
 * secrets of what it prints: a file's text is not rewritten with them (a saved plan keeps the
 * repository's `${NAME:-fallback}` as written, whose fallback may be the value the service holds;
 * rewritten after its checksum, it was refused as modified), and a saved plan's values that quote
 * one are (sensitive) already (its writer asks the redaction's `holds`, which knows them).
 */
export function learnLiveSecrets(redaction: Redaction | undefined, secrets: readonly string[]): void {
  if (redaction !== undefined && secrets.length > 0) redaction.add(secrets, { inFiles: false })
}
