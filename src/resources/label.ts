import { SENSITIVE, type DesiredResource } from '../core/types.js'

/**
 * How messages name a declared resource: `target T1`; one declared without id by its natural key,
 * `target "https://new.example.com/"`, `agent "dc-lisbon-agent"`. A key from a variable is a
 * secret: the resource is then `target (sensitive)`, known by the place in the YAML the message gives.
 */
export function declaredLabel(resource: Pick<DesiredResource, 'kind' | 'id' | 'naturalKey' | 'templates'>): string {
  if (resource.id !== '' || !resource.naturalKey) return `${resource.kind} ${resource.id}`
  return `${resource.kind} ${resource.templates.has(resource.naturalKey.field) ? SENSITIVE : JSON.stringify(resource.naturalKey.value)}`
}
