import type { KindName } from '../core/types.js'
import { agent } from './agent.js'
import { asset } from './asset.js'
import type { ResourceKind } from './kind.js'
import { target } from './target.js'

/**
 * The registry: every kind scansync manages, in output order (plans, reports and imports list
 * targets, then assets, then agents). Adding a kind: its module, and one entry here.
 */
export const REGISTRY: readonly ResourceKind[] = [target, asset, agent]

export const KINDS = Object.fromEntries(REGISTRY.map((kind) => [kind.name, kind])) as Readonly<Record<KindName, ResourceKind>>

/** The kind names in output order (the values of --kind). */
export const KIND_NAMES: readonly KindName[] = REGISTRY.map((kind) => kind.name)

/** Each kind's place in the output order. */
export const KIND_ORDER = Object.fromEntries(REGISTRY.map((kind, i) => [kind.name, i])) as Readonly<Record<KindName, number>>

/** "target, asset or agent", for messages and help. */
export const KIND_CHOICES = KIND_NAMES.length > 1 ? `${KIND_NAMES.slice(0, -1).join(', ')} or ${KIND_NAMES[KIND_NAMES.length - 1]}` : KIND_NAMES.join('')

export const isKindName = (name: string): name is KindName => Object.hasOwn(KINDS, name)

export type { FieldRule, PlannedRequest, RequestInput, ResourceKind } from './kind.js'
