import { stringify } from 'yaml'
import { loadFile } from '../../src/config/load.js'
import type { DesiredResource, JsonObject, KindName } from '../../src/core/types.js'
import { formatDiagnostic } from '../../src/core/diagnostics.js'

const LIST: Record<KindName, string> = { target: 'targets', asset: 'assets', agent: 'agents' }

/** A declared resource, through the real loader, from a plain object (or YAML text). */
export function declare(kind: KindName, fields: JsonObject | string, env: Record<string, string> = {}): DesiredResource {
  const text = typeof fields === 'string' ? fields : stringify({ [LIST[kind]]: [fields] })
  const { resources, diagnostics } = loadFile('test.yaml', Buffer.from(text), env)
  if (diagnostics.length > 0) throw new Error(diagnostics.map(formatDiagnostic).join('\n'))
  return resources[0]
}
