import type { JsonObject } from '../core/types.js'
import type { FieldRule, ResourceKind } from './kind.js'
import { color, labelInputs, nullableText } from './normalize.js'
import { isObject } from '../core/json.js'
import { requestMembersAt } from '../schema/request-schema.js'
import { unitValue } from './request-body.js'
import { withAccountColours } from './account-colours.js'
import { sensitiveFields } from '../schema/sensitive-fields.js'
import { isObfuscated } from '../schema/sensitivity.js'

const rules: Record<string, FieldRule> = {
  owners: { type: 'keyed', key: 'name', display: 'whole' },
  labels: { type: 'keyed', key: 'name', display: 'whole' },
  'owners.color': { type: 'scalar', normalize: color },
  'labels.color': { type: 'scalar', normalize: color },
  comment: { type: 'scalar', normalize: nullableText },
}

export const asset: ResourceKind = {
  name: 'asset',
  listPath: '/discovery/assets/',
  itemPath: (id) => `/discovery/assets/${encodeURIComponent(id)}/`,
  method: 'PUT',
  requestSchema: 'asset-put.request.schema.json',
  responseValidator: 'asset.response.schema.json',
  rules,
  sensitiveFields: sensitiveFields('asset-put.request.schema.json'),
  list: 'assets',
  filledByScans: [],
  onlyWhile: {},
  yamlPlace: (place) => place,
  project(live) {
    // The document leaves open whether these are beside `target` or inside it ("listed after
    // it"): read inside `target` when the top level lacks them, as the PUT, whole, must carry them.
    const inTarget = (field: string) => (!Object.hasOwn(live, field) && isObject(live.target) ? live.target[field] : live[field])
    // A member answered nowhere is left out, not made empty: the PUT, whole, would send it empty
    // and reset what the service did not show (buildRequest sends only what is there).
    const projected: JsonObject = { ...live }
    for (const field of ['owners', 'labels']) {
      const labels = inTarget(field)
      if (labels !== undefined) projected[field] = labelInputs(labels)
    }
    const comment = inTarget('comment')
    if (comment !== undefined) projected.comment = comment
    return projected
  },
  displayName(desired, live) {
    const name = desired?.name ?? live?.name
    return typeof name === 'string' ? name : null
  },
  /**
   * The document does not say whether PUT resets omitted fields, so the body is always whole:
   * every writable field, from the YAML where declared and from live otherwise. A member the
   * answer carries that the response schema does not know (the service added it since) goes back
   * as answered: it may be writable now, and a PUT leaving it out could reset it; a read-only one
   * is ignored by the service. A value the service hides (OBFUSCATED_…) cannot be sent back.
   */
  buildRequest({ desired, live, raw }) {
    const body: JsonObject = {}
    for (const field of requestMembersAt('asset-put.request.schema.json', []) ?? []) {
      const value = Object.hasOwn(desired.fields, field) ? unitValue(asset, field, desired.fields, live) : withAccountColours('asset', field, live[field], desired.accountColours)
      if (value !== undefined) body[field] = value
    }
    const known = requestMembersAt('asset.response.schema.json', []) ?? []
    for (const [field, value] of Object.entries(raw)) {
      if (!known.includes(field) && !Object.hasOwn(body, field) && !isObfuscated(value)) body[field] = value
    }
    return { method: 'PUT', path: asset.itemPath(desired.id), body }
  },
}
