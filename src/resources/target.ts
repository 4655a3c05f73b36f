import type { JsonObject } from '../core/types.js'
import type { FieldRule, ResourceKind } from './kind.js'
import { color, idOf, labelInputs, nullableFalse, nullableList, nullableText, nullableUrl, time, url } from './normalize.js'
import { isObject, setPath } from '../core/json.js'
import { mergePatchBody } from './request-body.js'
import { sensitiveFields } from '../schema/sensitive-fields.js'
import { liveReference } from './references.js'

const rules: Record<string, FieldRule> = {
  site: { type: 'object' },
  'site.url': { type: 'scalar', normalize: url },
  'site.form_login_url': { type: 'scalar', normalize: url },
  'site.check_session_url': { type: 'scalar', normalize: url },
  'site.desc': { type: 'scalar', normalize: nullableText },
  'site.form_login': { type: 'keyed', key: 'name', display: 'items' },
  'site.headers': { type: 'keyed', key: 'name', display: 'items' },
  'site.cookies': { type: 'keyed', key: 'name', display: 'items' },
  'site.stack': { type: 'keyed', key: 'name', display: 'whole' },
  'site.whitelist': { type: 'set' },
  'site.blacklist': { type: 'set' },
  // username and password are required together: a change to one sends both.
  'site.basic_auth': { type: 'object', sendWhole: true },
  api_scan_settings: { type: 'object' },
  'api_scan_settings.api_schema_url': { type: 'scalar', normalize: nullableUrl },
  'api_scan_settings.api_login_url': { type: 'scalar', normalize: url },
  'api_scan_settings.api_schema_file': { type: 'scalar', normalize: nullableText },
  'api_scan_settings.api_schema_method': { type: 'scalar', normalize: nullableText },
  'api_scan_settings.openapi_check_session_expired_payload': { type: 'scalar', normalize: nullableText },
  'api_scan_settings.custom_api_parameters': { type: 'keyed', key: 'name', display: 'items' },
  labels: { type: 'keyed', key: 'name', display: 'whole' },
  'labels.color': { type: 'scalar', normalize: color },
  scanning_agent: { type: 'reference' },
  // begin, cease and weekdays are required together: a change to one sends the whole window.
  blackout_period: { type: 'object', sendWhole: true },
  'blackout_period.begin': { type: 'scalar', normalize: time },
  'blackout_period.cease': { type: 'scalar', normalize: time },
  'blackout_period.weekdays': { type: 'set' },
  // The document: "false or null: they are excluded".
  include_deduplicated_endpoints: { type: 'scalar', normalize: nullableFalse },
}

const site = (resource: JsonObject): JsonObject => (isObject(resource.site) ? resource.site : {})

/** Some targets keep api_scan_settings inside site (the document leaves it open); the YAML keeps it at the top level. */
const INSIDE_SITE = /^site\.api_scan_settings(?=$|[.[])/

// This runs once for every live target a plan reads. Rest destructuring copies a parsed answer
// without the members reshaped below in one step, and the copy keeps V8's fast properties;
// adding ~30 members one by one to `{}` turned each copy into a dictionary (V8 stops giving
// fast properties to an object after a dozen added by key): several times the memory (it was
// the largest allocation of a plan) and slower reads for the comparison after it.
function project(live: JsonObject): JsonObject {
  const { site, api_scan_settings: topLevelApiSettings, scan_profile, labels, scanning_agent, blackout_period, ...projected } = live
  const { api_scan_settings: siteApiSettings, ...siteFields }: JsonObject = isObject(site) ? site : {}
  // The document leaves the nesting of stack open: read it from the top level when site lacks it.
  if (siteFields.stack === undefined && projected.stack !== undefined) siteFields.stack = projected.stack
  projected.site = siteFields
  // Seen inside site as well as at the top level; the YAML keeps it at the top level.
  projected.api_scan_settings = isObject(topLevelApiSettings) ? topLevelApiSettings : isObject(siteApiSettings) ? siteApiSettings : null
  projected.scan_profile = idOf(scan_profile)
  projected.labels = labelInputs(labels)
  projected.scanning_agent = scanning_agent === null || scanning_agent === undefined ? null : isObject(scanning_agent) ? liveReference(scanning_agent) : { id: idOf(scanning_agent) }
  // The document lists it at the top level (not always present) and inside the embedded agent:
  // read there when the top level lacks it.
  if (!Object.hasOwn(projected, 'include_deduplicated_endpoints') && isObject(scanning_agent) && Object.hasOwn(scanning_agent, 'include_deduplicated_endpoints')) {
    projected.include_deduplicated_endpoints = scanning_agent.include_deduplicated_endpoints
  }
  projected.blackout_period = isObject(blackout_period) ? { ...blackout_period, weekdays: nullableList(blackout_period.weekdays) } : null
  return projected
}

export const target: ResourceKind = {
  name: 'target',
  listPath: '/targets/',
  itemPath: (id) => `/targets/${encodeURIComponent(id)}/`,
  method: 'PATCH',
  requestSchema: 'target-patch.request.schema.json',
  responseValidator: 'target.response.schema.json',
  rules,
  sensitiveFields: sensitiveFields('target-patch.request.schema.json'),
  list: 'targets',
  // "technologies identified in the target during scans".
  filledByScans: ['site.stack'],
  onlyWhile: {
    // The document: "api_scan_settings (if the target is an API)".
    api_scan_settings: (resource) => resource.type === 'api',
    'site.otp_type': (resource) => site(resource).has_otp === true,
    'site.logout_condition': (resource) => site(resource).logout_detection_enabled === true,
  },
  yamlPlace: (place) => place.replace(INSIDE_SITE, 'api_scan_settings'),
  project,
  references: { scanning_agent: 'agent' },
  displayName(desired, live) {
    const name = (desired?.site as JsonObject | undefined)?.name ?? (live?.site as JsonObject | undefined)?.name
    return typeof name === 'string' ? name : null
  },
  buildRequest({ desired, live, raw, units }) {
    const body = mergePatchBody(target, units, desired.fields, live)
    // api_scan_settings goes where the live target keeps it.
    const site = raw.site
    if (body.api_scan_settings !== undefined && isObject(site) && isObject(site.api_scan_settings) && !isObject(raw.api_scan_settings)) {
      setPath(body, ['site', 'api_scan_settings'], body.api_scan_settings)
      delete body.api_scan_settings
    }
    return { method: 'PATCH', path: target.itemPath(desired.id), body }
  },
}
