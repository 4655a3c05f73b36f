import type { KindName } from '../core/types.js'
import { agent } from './agent.js'
import { asset } from './asset.js'
import type { ResourceKind } from './kind.js'
import { target } from './target.js'

export const KINDS: Readonly<Record<KindName, ResourceKind>> = { target, asset, agent }
export type { FieldRule, PlannedRequest, RequestInput, ResourceKind } from './kind.js'
