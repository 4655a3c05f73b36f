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

/** The colour the configuration declares for each label or owner name, by `colourKey`. */
export type AccountColours = ReadonlyMap<string, string>

export const colourKey = (family: string, name: string): string => `${family}\0${name}`

/**
 * A live list of labels (or owners) a request re-sends because its resource's PUT is whole, with
 * each name the configuration gives a colour to in that colour: the colour read before the apply
 * would undo, later in the same apply, the colour another resource's request just set.
 */
export function withAccountColours(kind: string, path: string, list: unknown, colours: AccountColours | undefined): unknown {
  if (colours === undefined || colours.size === 0 || !Array.isArray(list)) return list
  const family = ACCOUNT_LABELS.find((lists) => lists.kind === kind && lists.path === path)?.family
  if (family === undefined) return list
  return list.map((item: unknown) => {
    if (!isObject(item) || typeof item.name !== 'string') return item
    const color = colours.get(colourKey(family, item.name))
    return color === undefined || item.color === color ? item : ({ ...item, color } as JsonObject)
  })
}
