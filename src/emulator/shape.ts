import type { AgentResponse, AssetResponse, TargetResponse } from '../schema/generated.js'
import type { AgentRecord, AssetRecord, State, TargetRecord } from './state.js'
import type { EmulatorKind } from './types.js'

/*
 * Responses as the service shapes them. The result shares nested objects with the store:
 * serialize it (or clone it) before the next write.
 */

export function renderTarget(state: State, record: TargetRecord): TargetResponse {
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

export function renderAsset(state: State, record: AssetRecord): AssetResponse {
  return {
    ...record.data,
    owners: record.owners.map((name) => state.owners.output(name)),
    labels: record.labels.map((name) => state.labels.output(name)),
  } as AssetResponse
}

export function renderAgent(state: State, record: AgentRecord): AgentResponse {
  return { ...record.data, teams: record.teams.map((id) => state.teams.output(id)) } as AgentResponse
}

/** The resource as GET answers it (before obfuscation), or undefined for an unknown id. */
export function render(state: State, kind: EmulatorKind, id: string): TargetResponse | AssetResponse | AgentResponse | undefined {
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
