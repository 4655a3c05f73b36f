import { isObject } from '../core/json.js'
import type { DesiredResource, JsonObject } from '../core/types.js'

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

/**
 * Gives each of the resources an apply is about to send the colours their declarations set (their
 * own, and those of the others sent with them): a request that re-sends a live list then sends
 * those, not the colour read before the apply. Only the resources sent: a colour the plan does not
 * show changing (a resource left out by --id, or one already as declared) is not sent.
 */
export function shareColoursAmong(resources: readonly DesiredResource[]): void {
  const colours = new Map<string, Map<string, string>>()
  for (const resource of resources) {
    for (const { kind, path, family } of ACCOUNT_LABELS) {
      const list = resource.kind === kind ? resource.fields[path] : undefined
      if (!Array.isArray(list)) continue
      for (const item of list) {
        if (!isObject(item) || typeof item.name !== 'string' || typeof item.color !== 'string') continue
        const named = colours.get(family) ?? colours.set(family, new Map()).get(family)!
        if (!named.has(item.name)) named.set(item.name, item.color)
      }
    }
  }
  if (colours.size === 0) return
  for (const resource of resources) if (ACCOUNT_LABELS.some((lists) => lists.kind === resource.kind)) resource.accountColours = colours
}
