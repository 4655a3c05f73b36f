import type { JsonObject } from '../core/types.js'
import type { AgentResponse, AssetResponse, TargetResponse } from '../schema/generated.js'
import type { LabelRegistry, ScanProfileRegistry, TeamRegistry } from './registries.js'

/** The three resource kinds the emulator serves. */
export type EmulatorKind = 'target' | 'asset' | 'agent'

export interface EmulatorOptions {
  /** Default 127.0.0.1. A non-loopback host is refused unless allowRemote. */
  host?: string
  /** Default 0: a free port (read the real one from Emulator.url). */
  port?: number
  /** The API token every request must carry as `Authorization: JWT <token>`. Default `demo-token`. */
  token?: string
  seed?: EmulatorSeed
  /** A fixed delay before every response, in milliseconds. */
  latencyMs?: number
  /** Return sensitive values as OBFUSCATED_<hash>, as an account with secrets obfuscation does. */
  obfuscate?: boolean
  faults?: FaultSpec[]
  /** Seed of the deterministic choice of faulted requests for faults given by share. Default 1. */
  faultSeed?: number
  allowRemote?: boolean
}

export interface Emulator {
  /** http://127.0.0.1:PORT (no trailing slash). */
  url: string
  /** Closes the server and every keep-alive socket promptly. */
  close(): Promise<void>
  /** The request log, in arrival order. */
  requests(): RecordedRequest[]
  /** When each logged request arrived and was answered (for measuring a client's concurrency). */
  timings(): RequestTiming[]
  clearRequests(): void
  /**
   * Changes a stored resource as a person in the web UI would: deep merge (arrays replaced whole),
   * `changed` updated. Accepts the same forms as the seed. Throws if the id is unknown.
   */
  mutate(kind: EmulatorKind, id: string, changes: object): void
  /** The stored resource as GET would answer it, without obfuscation; undefined for an unknown id. */
  get(kind: EmulatorKind, id: string): unknown
  /** Accepts another API token from now on (and no longer the old one), as after a token rotation. */
  rotateToken(token: string): void
  /** Replaces the active faults (and restarts their counters). */
  setFaults(spec: FaultSpec[]): void
  setLatency(ms: number): void
  /** Replaces all data. */
  seed(data: EmulatorSeed): void
}

export interface RequestTiming {
  method: string
  /** Arrival, in milliseconds since the epoch (sub-millisecond precision). */
  arrivedMs: number
  /** When the answer went out or the connection ended; undefined while it is pending. */
  answeredMs?: number
}

export interface RecordedRequest {
  method: string
  /** The path without the query string. */
  path: string
  query: Record<string, string>
  /** Parsed JSON body with sensitive values replaced by "(redacted)"; undefined when absent or not JSON. */
  body: unknown
  /** Which headers were present; never the token or the Authorization value. */
  headers: { authorization: boolean; contentType?: string; accept?: string; userAgent?: string }
  /** The status sent; 0 when the connection was dropped before any response (or none was sent yet). */
  status: number
  /** The fault injected into this request, by its type. */
  fault?: string
}

/**
 * Data to serve. Resources may use the response shapes or the request-like input forms:
 * labels as strings or {name, color}, scan_profile as a string id, scanning_agent as {id} or an id,
 * teams as [{id}] (a team not listed under `teams` is created), blackout times as HH:MM,
 * api_scan_settings at the top level of a target or inside `site`.
 */
export interface EmulatorSeed {
  teams?: { id: string; name: string }[]
  agents?: Partial<AgentResponse>[]
  targets?: Partial<TargetResponse>[]
  assets?: Partial<AssetResponse>[]
}

export const FAULT_TYPES = [
  '429',
  '500',
  '502',
  '502-html',
  '503',
  '504',
  'drop',
  'drop-mid',
  'slow',
  'truncate',
  'not-resource',
] as const

export type FaultType = (typeof FAULT_TYPES)[number]

export interface FaultSpec {
  type: FaultType
  /** Share (0..1) of the matching requests, chosen deterministically from faultSeed. */
  share?: number
  /** Only the first N matching requests. */
  count?: number
  /** Only requests with this method. */
  method?: string
  /** Only requests whose path starts with this. */
  path?: string
  /** Retry-After for 429 and 503: seconds, or an HTTP date. */
  retryAfter?: number | string
  /** For `slow`: how long to wait before answering. Default 10,000 ms. */
  delayMs?: number
}

/*
 * A stored resource keeps its response shape in `data`, except the members that refer to
 * account-level objects (labels, owners, teams, scan profile, scanning agent): those are kept
 * as references and rendered on every read, so that a colour changed on one target shows on all.
 */

export interface TargetRecord {
  data: JsonObject
  labels: string[]
  scanProfile: string
  agentId: string | null
}

export interface AssetRecord {
  data: JsonObject
  labels: string[]
  owners: string[]
}

export interface AgentRecord {
  data: JsonObject
  teams: string[]
}

export interface RecordOf {
  target: TargetRecord
  asset: AssetRecord
  agent: AgentRecord
}

/** The account-level objects a write refers to (the State, seen from writes.ts). */
export interface Account {
  readonly teams: TeamRegistry
  readonly labels: LabelRegistry
  readonly owners: LabelRegistry
  readonly profiles: ScanProfileRegistry
  readonly agents: ReadonlyMap<string, AgentRecord>
}
