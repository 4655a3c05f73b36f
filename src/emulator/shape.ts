import type { AgentResponse, AssetResponse, TargetResponse } from '../schema/generated.js'
import { validator, type ValidatorName } from '../schema/validators.js'
import { kindEntries } from '../schema/kinds.js'
import type { Account, AgentRecord, AssetRecord, RecordOf, TargetRecord } from './types.js'
import type { EmulatorKind } from './types.js'

/*
 * Responses as the service shapes them. The result shares nested objects with the store:
 * serialize it (or clone it) before the next write.
 */

export function renderTarget(state: Account, record: TargetRecord): TargetResponse {
  const agent = record.agentId === null ? undefined : state.agents.get(record.agentId)
  return {
    ...record.data,
    scan_profile: state.profiles.output(record.scanProfile),
    labels: record.labels.map((name) => state.labels.output(name)),
    scanning_agent: agent
      ? { ...renderAgent(state, agent), include_deduplicated_endpoints: (record.data.include_deduplicated_endpoints as boolean | null) ?? null }
      : null,
  } as TargetResponse
}

export function renderAsset(state: Account, record: AssetRecord): AssetResponse {
  return {
    ...record.data,
    owners: record.owners.map((name) => state.owners.output(name)),
    labels: record.labels.map((name) => state.labels.output(name)),
  } as AssetResponse
}

export function renderAgent(state: Account, record: AgentRecord): AgentResponse {
  return { ...record.data, teams: record.teams.map((id) => state.teams.output(id)) } as AgentResponse
}

/** What rendering reads of the State (named without it: the State checks shapes through this module). */
interface Store extends Account {
  readonly targets: ReadonlyMap<string, TargetRecord>
  readonly assets: ReadonlyMap<string, AssetRecord>
}

/** The resource as GET answers it (before obfuscation), or undefined for an unknown id. */
export function render(state: Store, kind: EmulatorKind, id: string): TargetResponse | AssetResponse | AgentResponse | undefined {
  if (kind === 'target') {
    const record = state.targets.get(id)
    return record && renderTarget(state, record)
  }
  if (kind === 'asset') {
    const record = state.assets.get(id)
    return record && renderAsset(state, record)
  }
  const record = state.agents.get(id)
  return record && renderAgent(state, record)
}

/** The response schema each kind's answers are read with: schemas/kinds.json's, as scansync's reads check. */
const responseSchema = (kind: EmulatorKind): ValidatorName => kindEntries().find((entry) => entry.kind === kind)!.response

/**
 * What is wrong with a record as GET would answer it, by the response schema (`/site/name must
 * be string`), or undefined. Seed files and hand changes are held to it: a value the service never
 * answers would only come back as "an unexpected shape" in the next plan.
 */
export function shapeProblem<K extends EmulatorKind>(state: Account, kind: K, record: RecordOf[K]): string | undefined {
  const resource =
    kind === 'target' ? renderTarget(state, record as TargetRecord) : kind === 'asset' ? renderAsset(state, record as AssetRecord) : renderAgent(state, record as AgentRecord)
  const validate = validator(responseSchema(kind))
  if (validate(structuredClone(resource))) return undefined
  const error = validate.errors?.[0]
  return `${error?.instancePath || '/'} ${error?.message ?? 'is not valid'}`
}
