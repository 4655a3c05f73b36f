import { SENSITIVE, type DesiredResource } from '../core/types.js'

/**
 * How messages name a declared resource: `target T1`; one declared without id by its natural key,
 * `target "https://new.example.com/"`, `agent "dc-lisbon-agent"`. A key from a variable is a
 * secret: the resource is then `target (sensitive)`, known by the place in the YAML the message gives.
 * So is a key that `holds` says holds a secret of the run (a URL holding a weak one, which the
 * output step leaves in a text), as the plan's heading shows it.
 */
export function declaredLabel(resource: Pick<DesiredResource, 'kind' | 'id' | 'naturalKey' | 'templates'>, holds?: (text: string) => boolean): string {
  if (resource.id !== '' || !resource.naturalKey) return `${resource.kind} ${resource.id}`
  const { field, value } = resource.naturalKey
  return `${resource.kind} ${resource.templates.has(field) || holds?.(value) === true ? SENSITIVE : JSON.stringify(value)}`
}
