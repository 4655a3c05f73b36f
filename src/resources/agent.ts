import type { FieldRule, ResourceKind } from './kind.js'
import { nullableList } from './normalize.js'
import { isObject } from '../core/json.js'
import { mergePatchBody } from './request-body.js'
import { sensitiveFields } from '../schema/sensitive-fields.js'
import { liveReference } from './references.js'

const rules: Record<string, FieldRule> = {
  teams: { type: 'keyed', key: 'id', display: 'whole' },
}

export const agent: ResourceKind = {
  name: 'agent',
  listPath: '/scanning-agents/',
  itemPath: (id) => `/scanning-agents/${encodeURIComponent(id)}/`,
  method: 'PATCH',
  requestSchema: 'agent-patch.request.schema.json',
  responseValidator: 'agent.response.schema.json',
  rules,
  sensitiveFields: sensitiveFields('agent-patch.request.schema.json'),
  list: 'agents',
  filledByScans: [],
  onlyWhile: {},
  yamlPlace: (place) => place,
  references: { teams: 'team' },
  project(live) {
    return { ...live, teams: nullableList(live.teams).filter(isObject).map(liveReference) }
  },
  displayName(desired, live) {
    const name = desired?.name ?? live?.name
    return typeof name === 'string' ? name : null
  },
  buildRequest({ desired, live, units }) {
    return { method: 'PATCH', path: agent.itemPath(desired.id), body: mergePatchBody(agent, units, desired.fields, live) }
  },
}
