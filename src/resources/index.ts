/*
 * The registry: every kind scansync manages, in output order (plans, reports and imports list
 * targets, then assets, then agents).
 *
 * To add a kind (say `widget`, kept in the list `widgets`):
 *   1. schemas/widget-patch.request.schema.json: the fields a YAML file declares (the service's
 *      request body), and schemas/widget.response.schema.json: what the service answers.
 *   2. schemas/kinds.json: one entry, in output order: kind, list, request and response (the two
 *      file names), naturalKey (the field that identifies a widget declared without id; leave it
 *      out if an id is required) and description (the configuration schema shows it). A natural
 *      key is checked in the files from this entry, but matched against the live list by
 *      identity.ts, which today knows targets and agents: a keyed kind adds its case there.
 *   3. src/resources/widget.ts: the module (ResourceKind: paths, rules, projection, request…),
 *      with the same list and schema files (`list`, `requestSchema`, `responseValidator`).
 *   4. Here: import it and put it in REGISTRY at its place in the output order.
 *   5. `npm run gen`: derives schemas/config.schema.json (the `widgets` list, the `kind` enum that
 *      plans and policies use), src/schema/generated.ts (the types, SCHEMA_FILES) and
 *      src/core/kind-name.ts (KindName, NaturalKeyField). Nothing else is written by hand: the
 *      validators, the --kind choices, the loader's lists and docs/config-reference.md (`npm run
 *      docs`) follow. test/resources/kinds.test.ts checks that kinds.json and REGISTRY agree.
 * That is five files by hand (two schemas, a kinds.json entry, the module, this list). The embedded
 * emulator (src/emulator/) stands for the service, not for scansync: to run the kind end to end in
 * tests, teach it the kind's endpoints as well.
 */
import type { KindName } from '../core/types.js'
import { agent } from './agent.js'
import { asset } from './asset.js'
import type { ResourceKind } from './kind.js'
import { target } from './target.js'

export const REGISTRY: readonly ResourceKind[] = [target, asset, agent]

/** What the rest of the code asks of the registry, derived from its list of kinds alone. */
export function registryOf(registry: readonly ResourceKind[]) {
  const names = registry.map((kind) => kind.name)
  return {
    kinds: Object.fromEntries(registry.map((kind) => [kind.name, kind])) as Readonly<Record<KindName, ResourceKind>>,
    names: names as readonly KindName[],
    order: Object.fromEntries(names.map((name, i) => [name, i])) as Readonly<Record<KindName, number>>,
    choices: names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : names.join(''),
  }
}

const registry = registryOf(REGISTRY)

export const KINDS = registry.kinds

/** The kind names in output order (the values of --kind). */
export const KIND_NAMES = registry.names

/** Each kind's place in the output order. */
export const KIND_ORDER = registry.order

/** "target, asset or agent", for messages and help. */
export const KIND_CHOICES = registry.choices

export const isKindName = (name: string): name is KindName => Object.hasOwn(KINDS, name)

export type { FieldRule, PlannedRequest, RequestInput, ResourceKind } from './kind.js'
