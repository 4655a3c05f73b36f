import type { DesiredResource } from '../core/types.js'
import { variableValues } from '../config/interpolate.js'
import { isObject } from '../core/json.js'
import { KINDS } from '../resources/index.js'
import { isSensitive } from '../schema/sensitivity.js'

export interface DeclaredSecret {
  value: string
  /** Dotted place inside the resource's fields, list indexes in brackets (`site.headers[0].value`). */
  place: string
  /** The same place as path segments (for `DesiredResource.locate`). */
  segments: Array<string | number>
  /** True when the value came from `${…}` (a saved plan keeps the reference). */
  fromVariable: boolean
}

/** Every secret a declared resource holds, as the one sensitivity rule (schema/sensitivity.ts) decides. */
export function declaredSecrets(resource: DesiredResource): DeclaredSecret[] {
  const found: DeclaredSecret[] = []
  const visit = (node: unknown, index: string, segments: Array<string | number>) => {
    if (Array.isArray(node)) node.forEach((item, i) => visit(item, `${index}[${i}]`, [...segments, i]))
    else if (isObject(node)) {
      for (const [key, value] of Object.entries(node)) {
        const here = index ? `${index}.${key}` : key
        const fromVariable = resource.templates.has(here)
        const rulePath = [...segments.filter((s) => typeof s === 'string'), key].join('.')
        if (typeof value === 'string' && isSensitive({ member: key, rulePath, containers: [node], fromVariable, sensitiveFields: KINDS[resource.kind].sensitiveFields })) {
          found.push({ value, place: here, segments: [...segments, key], fromVariable })
        } else visit(value, here, [...segments, key])
      }
    }
  }
  visit(resource.fields, '', [])
  return found
}

/**
 * Every secret value the configuration holds: values from `${…}`, and values whose
 * `<field>_is_sensitive` flag is true; and, in a value written around variables
 * (`Bearer ${API_KEY}`, a JSON payload holding `${CLIENT_SECRET}`), each variable's value by
 * itself: the service may quote it back on its own.
 */
export function secretValues(resources: DesiredResource[]): string[] {
  return [
    ...new Set(
      resources.flatMap((resource) =>
        declaredSecrets(resource).flatMap((secret) => {
          const template = secret.fromVariable ? resource.templates.get(secret.place) : undefined
          return template === undefined ? [secret.value] : [secret.value, ...variableValues(template, secret.value)]
        }),
      ),
    ),
  ]
}

// How secrets are written in a text and replaced there lives in the one redaction step.
export { writtenForms } from '../core/redaction.js'
