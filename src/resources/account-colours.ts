import { isObject } from '../core/json.js'
import type { JsonObject } from '../core/types.js'

/**
 * The lists of labels whose colour belongs to the account, not to the resource: the service keeps
 * one label per name (targets' and assets' labels share theirs; asset owners have their own), so a
 * colour sent for one resource is every resource's.
 */
export const ACCOUNT_LABELS: ReadonlyArray<{ kind: string; path: string; family: string }> = [
  { kind: 'target', path: 'labels', family: 'label' },
  { kind: 'asset', path: 'labels', family: 'label' },
  { kind: 'asset', path: 'owners', family: 'owner' },
]

/** The colour the configuration declares for each label or owner name, by family (`label`, `owner`) and name. */
export type AccountColours = ReadonlyMap<string, ReadonlyMap<string, string>>

/** One text for a family and a name (a key of one map). */
export const colourKey = (family: string, name: string): string => `${family}\0${name}`

/**
 * A live list of labels (or owners) a request re-sends because its resource's PUT is whole, with
 * each name the configuration gives a colour to in that colour: the colour read before the apply
 * would undo, later in the same apply, the colour another resource's request just set.
 */
export function withAccountColours(kind: string, path: string, list: unknown, colours: AccountColours | undefined): unknown {
  if (colours === undefined || !Array.isArray(list)) return list
  const family = ACCOUNT_LABELS.find((lists) => lists.kind === kind && lists.path === path)?.family
  const named = family === undefined ? undefined : colours.get(family)
  if (named === undefined || named.size === 0) return list
  return list.map((item: unknown) => {
    if (!isObject(item) || typeof item.name !== 'string') return item
    const color = named.get(item.name)
    return color === undefined || item.color === color ? item : ({ ...item, color } as JsonObject)
  })
}
