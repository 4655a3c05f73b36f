import { createdTarget, defaultAgent, defaultAsset, defaultTarget } from './defaults.js'
import { LabelRegistry, ScanProfileRegistry, TeamRegistry } from './registries.js'
import { shapeProblem } from './shape.js'
import type { Account, AgentRecord, AssetRecord, EmulatorKind, EmulatorSeed, RecordOf, TargetRecord } from './types.js'
import { applyAgentChanges, applyAssetChanges, applyTargetChanges, type Author } from './writes.js'
import { isObject, SEED_TIME, stableId, WEB_USER, type JsonObject } from './values.js'

// The record types live in types.ts (writes.ts needs them without needing the State); kept importable from here.
export type { AgentRecord, AssetRecord, RecordOf, TargetRecord } from './types.js'

/** Everything the emulator serves. */
export class State implements Account {
  readonly teams = new TeamRegistry()
  readonly labels = new LabelRegistry('label')
  readonly owners = new LabelRegistry('owner')
  readonly profiles = new ScanProfileRegistry()
  readonly targets = new Map<string, TargetRecord>()
  readonly assets = new Map<string, AssetRecord>()
  readonly agents = new Map<string, AgentRecord>()
  private readonly sortedIds: Record<EmulatorKind, string[]> = { target: [], asset: [], agent: [] }
  /** How many targets POST has created: the next new id derives from it. */
  private created = 0
  /**
   * Each resource's answer as JSON text, made at its first read. A write may change what other
   * resources show (a label's colour is shown by every target with that label), so any write or
   * creation forgets them all. The emulator's own CPU is not scansync's: with the benchmark's
   * pages made afresh for every read, it took ~150 ms of the two cores in each plan of 4,200.
   */
  private readonly answers = new Map<string, string>()

  /**
   * Builds the state from seed data; throws an Error naming the first bad entry. `checked`: each
   * resource must also answer in the response schema's shape (a seed file; tests may serve others).
   */
  static fromSeed(seed: EmulatorSeed = {}, { checked = false }: { checked?: boolean } = {}): State {
    const state = new State()
    const by: Author = { user: WEB_USER, now: SEED_TIME }
    for (const team of list(seed, 'teams')) {
      if (!isObject(team) || typeof team.id !== 'string' || typeof team.name !== 'string') throw new Error(`seed: a team needs an id and a name: ${JSON.stringify(team)}`)
      state.teams.add({ id: team.id, name: team.name })
    }
    // Agents first: targets refer to them.
    for (const [id, agent] of entries(seed, 'agents')) {
      const record: AgentRecord = { data: defaultAgent(id), teams: [] }
      seeding('agents', id, () => {
        applyAgentChanges(state, record, agent)
        if (checked) checkShape(state, 'agent', record)
      })
      state.agents.set(id, record)
    }
    for (const [id, target] of entries(seed, 'targets')) {
      const record: TargetRecord = { data: defaultTarget(id), labels: [], scanProfile: state.profiles.ensure('normal'), agentId: null }
      seeding('targets', id, () => {
        applyTargetChanges(state, record, target, by)
        if (checked) checkShape(state, 'target', record)
      })
      state.targets.set(id, record)
    }
    for (const [id, asset] of entries(seed, 'assets')) {
      const record: AssetRecord = { data: defaultAsset(id), labels: [], owners: [] }
      seeding('assets', id, () => {
        applyAssetChanges(state, record, asset, by)
        if (checked) checkShape(state, 'asset', record)
      })
      state.assets.set(id, record)
    }
    state.sortedIds.target = [...state.targets.keys()].sort()
    state.sortedIds.asset = [...state.assets.keys()].sort()
    state.sortedIds.agent = [...state.agents.keys()].sort()
    return state
  }

  /** Ids of a kind in list order (by id). */
  ids(kind: EmulatorKind): readonly string[] {
    return this.sortedIds[kind]
  }

  /** A resource's answer as JSON text: `answer()` made into text once, until the next write. */
  answerText(kind: EmulatorKind, id: string, answer: () => unknown): string {
    const key = `${kind}/${id}`
    let text = this.answers.get(key)
    if (text === undefined) this.answers.set(key, (text = JSON.stringify(answer())))
    return text
  }

  record<K extends EmulatorKind>(kind: K, id: string): RecordOf[K] | undefined {
    const map = (kind === 'target' ? this.targets : kind === 'asset' ? this.assets : this.agents) as Map<string, RecordOf[K]>
    return map.get(id)
  }

  /**
   * Creates a target from a validated POST body and returns its new id. The id is Base58 and
   * derived from a counter, so that the same requests give the same ids every run. A body that
   * throws (an unknown scanning agent) creates nothing.
   */
  createTarget(changes: JsonObject, by: Author): string {
    this.answers.clear()
    let id: string
    do id = stableId('created-target', String(++this.created))
    while (this.targets.has(id))
    const record: TargetRecord = { data: createdTarget(id, by.now), labels: [], scanProfile: this.profiles.ensure('normal'), agentId: null }
    applyTargetChanges(this, record, changes, by)
    this.targets.set(id, record)
    const ids = this.sortedIds.target
    let at = ids.length
    while (at > 0 && ids[at - 1] > id) at--
    ids.splice(at, 0, id)
    return id
  }

  /**
   * Applies changes to a copy of the stored record and stores the copy, so that a write that
   * throws (an unknown scanning agent, say) leaves the resource as it was. `checked`: the result
   * must answer in the response schema's shape (a hand change; tests may serve others).
   */
  write(kind: EmulatorKind, id: string, changes: JsonObject, by: Author, { checked = false }: { checked?: boolean } = {}): void {
    this.answers.clear()
    const current = this.record(kind, id)
    if (!current) throw new Error(`no ${kind} with id ${JSON.stringify(id)}`)
    const next = structuredClone(current)
    if (kind === 'target') applyTargetChanges(this, next as TargetRecord, changes, by)
    else if (kind === 'asset') applyAssetChanges(this, next as AssetRecord, changes, by)
    else applyAgentChanges(this, next as AgentRecord, changes)
    if (checked) checkShape(this, kind, next)
    Object.assign(current, next)
  }
}

function list(seed: EmulatorSeed, key: keyof EmulatorSeed): unknown[] {
  const value = seed[key]
  if (value === undefined) return []
  if (!Array.isArray(value)) throw new Error(`seed: ${key} must be a list`)
  return value
}

function entries(seed: EmulatorSeed, key: 'agents' | 'targets' | 'assets'): [string, JsonObject][] {
  const seen = new Set<string>()
  return list(seed, key).map((item, index) => {
    if (!isObject(item) || typeof item.id !== 'string' || item.id === '') throw new Error(`seed: ${key}[${index}] needs an id`)
    if (seen.has(item.id)) throw new Error(`seed: ${key} holds the id ${item.id} twice`)
    seen.add(item.id)
    return [item.id, item]
  })
}

function checkShape<K extends EmulatorKind>(state: State, kind: K, record: RecordOf[K]): void {
  const problem = shapeProblem(state, kind, record)
  if (problem) throw new Error(`${problem} (the service never answers that)`)
}

function seeding(key: string, id: string, apply: () => void): void {
  try {
    apply()
  } catch (error) {
    throw new Error(`seed: ${key} ${id}: ${(error as Error).message}`)
  }
}
