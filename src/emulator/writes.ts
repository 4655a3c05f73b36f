import type { UserRef } from '../schema/generated.js'
import { defaultApiScanSettings, defaultBlackoutPeriod, HEADER_ENTRY_DEFAULTS, NAME_VALUE_ENTRY_DEFAULTS } from './defaults.js'
import type { LabelRegistry } from './registries.js'
import type { Account, AgentRecord, AssetRecord, TargetRecord } from './types.js'
import { deepMerge, hostOf, isObject, stableId, timeOfDay, type JsonObject } from './values.js'

/** Who writes, and when. */
export interface Author {
  user: UserRef
  now: string
}

/*
 * How a write lands on a stored resource. The same functions take a validated request body
 * (PATCH, PUT) and the looser forms of seed data and Emulator.mutate (output labels, scan
 * profile objects, HH:MM:SS times, api_scan_settings inside site, ids as strings).
 */

export function applyTargetChanges(state: Account, record: TargetRecord, changes: JsonObject, by: Author): void {
  const {
    id: _id,
    site,
    api_scan_settings: topLevelApi,
    labels,
    scan_profile: scanProfile,
    scanning_agent: agent,
    blackout_period: blackout,
    changed,
    changed_by: changedBy,
    ...rest
  } = changes
  let siteChanges = site ?? undefined
  let apiChanges = topLevelApi
  if (isObject(siteChanges) && 'api_scan_settings' in siteChanges) {
    const { api_scan_settings: inSite, ...others } = siteChanges
    siteChanges = others
    apiChanges = apiChanges === undefined ? inSite : deepMerge(inSite, apiChanges)
  }
  if (siteChanges !== undefined || apiChanges !== undefined) record.data.site = mergeSite(record.data.site, siteChanges, apiChanges, by)
  if (blackout !== undefined) record.data.blackout_period = mergeBlackout(record.data.blackout_period, blackout, by)
  if (labels !== undefined) record.labels = upsertLabels(state.labels, labels, by)
  if (scanProfile !== undefined) record.scanProfile = state.profiles.ensure(scanProfile ?? 'normal')
  if (agent !== undefined) record.agentId = agentReference(state, agent)
  record.data = deepMerge(record.data, rest) as JsonObject
  stamp(record.data, changed, changedBy, by)
}

/** Owners and labels are replaced whole; everything else merges. A PUT passes every writable field. */
export function applyAssetChanges(state: Account, record: AssetRecord, changes: JsonObject, by: Author): void {
  const { id: _id, owners, labels, blackout_period: blackout, changed, changed_by: changedBy, ...rest } = changes
  if (owners !== undefined) record.owners = upsertLabels(state.owners, owners, by)
  if (labels !== undefined) record.labels = upsertLabels(state.labels, labels, by)
  if (blackout !== undefined) record.data.blackout_period = mergeBlackout(record.data.blackout_period, blackout, by)
  const data = deepMerge(record.data, rest) as JsonObject
  if (isObject(data.target) && data.target.desc === null) data.target.desc = ''
  record.data = data
  stamp(record.data, changed, changedBy, by)
}

/** Agents carry no `changed`: the document lists none. */
export function applyAgentChanges(state: Account, record: AgentRecord, changes: JsonObject): void {
  const { id: _id, teams, ...rest } = changes
  if (teams !== undefined) record.teams = unique(Array.isArray(teams) ? teams.map((team) => state.teams.ensure(team)) : [])
  record.data = deepMerge(record.data, rest) as JsonObject
}

function stamp(data: JsonObject, changed: unknown, changedBy: unknown, by: Author): void {
  data.changed = typeof changed === 'string' ? changed : by.now
  data.changed_by = isObject(changedBy) ? changedBy : by.user
}

function mergeSite(current: unknown, changes: unknown, apiChanges: unknown, by: Author): JsonObject {
  const site = (changes === undefined ? { ...(current as JsonObject) } : deepMerge(current, normalizeSite(changes))) as JsonObject
  if (apiChanges !== undefined) {
    site.api_scan_settings = apiChanges === null ? null : deepMerge(site.api_scan_settings ?? defaultApiScanSettings(), normalizeApiScanSettings(apiChanges))
  }
  if (site.desc === null) site.desc = ''
  // The masking flag of a basic authentication written without it is false, as the schemas give it
  // (common.schema.json, basicAuth) and as this service fills the flags of headers, login fields
  // and API settings: left out, a rule requiring it true passed once the target existed, though
  // it failed in the plan that created it.
  if (isObject(site.basic_auth) && !Object.hasOwn(site.basic_auth, 'password_is_sensitive')) site.basic_auth = { ...site.basic_auth, password_is_sensitive: false }
  site.host = hostOf(site.url) || site.host
  site.has_authentication = Boolean(site.has_form_login || site.has_basic_auth || site.has_sequence_login || site.auth_enabled)
  stamp(site, isObject(changes) ? changes.changed : undefined, isObject(changes) ? changes.changed_by : undefined, by)
  return site
}

function normalizeSite(changes: unknown): unknown {
  if (!isObject(changes)) return changes
  const site = { ...changes }
  for (const key of ['headers', 'cookies']) if (key in site) site[key] = withDefaults(site[key], HEADER_ENTRY_DEFAULTS)
  if ('form_login' in site) site.form_login = withDefaults(site.form_login, NAME_VALUE_ENTRY_DEFAULTS)
  if (Array.isArray(site.stack)) site.stack = site.stack.map(technology)
  return site
}

function normalizeApiScanSettings(changes: unknown): unknown {
  if (!isObject(changes) || !('custom_api_parameters' in changes)) return changes
  return { ...changes, custom_api_parameters: withDefaults(changes.custom_api_parameters, NAME_VALUE_ENTRY_DEFAULTS) }
}

/** List entries with the members the service fills in, in the service's order. */
function withDefaults(entries: unknown, defaults: JsonObject): unknown {
  if (!Array.isArray(entries)) return entries
  return entries.map((entry) => (isObject(entry) ? { name: entry.name, value: entry.value, ...defaults, ...entry } : entry))
}

function technology(item: unknown): unknown {
  if (!isObject(item) || typeof item.name !== 'string') return item
  return { id: typeof item.id === 'string' ? item.id : stableId('technology', item.name), name: item.name, desc: item.desc ?? '' }
}

function mergeBlackout(current: unknown, changes: unknown, by: Author): unknown {
  if (changes === null) return null
  const period = deepMerge(isObject(current) ? current : defaultBlackoutPeriod(), changes) as JsonObject
  period.begin = timeOfDay(period.begin)
  period.cease = timeOfDay(period.cease)
  stamp(period, isObject(changes) ? changes.changed : undefined, isObject(changes) ? changes.changed_by : undefined, by)
  return period
}

function upsertLabels(registry: LabelRegistry, labels: unknown, by: Author): string[] {
  return unique(Array.isArray(labels) ? labels.map((label) => registry.upsert(label, by.user, by.now)) : [])
}

/** The id of a scanning agent given as {id}, an embedded agent, an id, or null. */
function agentReference(state: Account, agent: unknown): string | null {
  if (agent === null) return null
  const id = typeof agent === 'string' ? agent : isObject(agent) ? agent.id : undefined
  if (typeof id !== 'string' || !state.agents.has(id)) throw new Error(`unknown scanning agent: ${JSON.stringify(agent)}`)
  return id
}

function unique(values: string[]): string[] {
  return [...new Set(values)]
}
