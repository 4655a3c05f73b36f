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

const join = (prefix: string, key: string) => (prefix ? `${prefix}.${key}` : key)

const lastMembersCache = new WeakMap<readonly string[], ReadonlySet<string>>()
/** The member names the kind's sensitive fields end with (`otp_secret` of `site.otp_secret`). */
function lastMembersOf(fields: readonly string[]): ReadonlySet<string> {
  let members = lastMembersCache.get(fields)
  if (!members) lastMembersCache.set(fields, (members = new Set(fields.map((field) => field.slice(field.lastIndexOf('.') + 1)))))
  return members
}

/** Every secret a declared resource holds, as the one sensitivity rule (schema/sensitivity.ts) decides. */
export function declaredSecrets(resource: DesiredResource): DeclaredSecret[] {
  const found: DeclaredSecret[] = []
  const sensitiveFields = KINDS[resource.kind].sensitiveFields
  const lastMembers = lastMembersOf(sensitiveFields)
  const templates = resource.templates
  // One stack of segments and the rule path built as the walk goes down: this runs over every
  // declared value before the first request, so it allocates a path only for a secret it finds.
  const segments: Array<string | number> = []
  // `unoptimised…`: runs over each resource once; V8's optimising compiler leaves it alone (bin/v8-flags.js).
  const unoptimisedVisit = (node: unknown, index: string, rule: string) => {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i]
        if (item === null || typeof item !== 'object') continue
        segments.push(i)
        unoptimisedVisit(item, `${index}[${i}]`, rule)
        segments.pop()
      }
    } else if (isObject(node)) {
      for (const key of Object.keys(node)) {
        const value = node[key]
        if (value === null || (typeof value !== 'string' && typeof value !== 'object')) continue
        if (typeof value === 'string') {
          // Places are spelt out only where they can matter: a resource with variables, a
          // member some sensitive field ends with, a secret found.
          const here = templates.size > 0 ? join(index, key) : undefined
          const fromVariable = here !== undefined && templates.has(here)
          const rulePath = lastMembers.has(key) ? join(rule, key) : ''
          if (isSensitive({ member: key, rulePath, containers: [node], fromVariable, sensitiveFields })) found.push({ value, place: here ?? join(index, key), segments: [...segments, key], fromVariable })
          continue
        }
        const here = join(index, key)
        const rulePath = join(rule, key)
        segments.push(key)
        unoptimisedVisit(value, here, rulePath)
        segments.pop()
      }
    }
  }
  unoptimisedVisit(resource.fields, '', '')
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
