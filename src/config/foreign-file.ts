import { configLists } from '../schema/config-lists.js'

/**
 * YAML that belongs to another tool (a CI pipeline, docker-compose): a mapping with none of the
 * top-level keys of a configuration file. Said in one line instead of one "unknown field" per key.
 */

/** Top-level keys of a configuration file (beside `x-…` keys, the user's own: YAML anchors and notes). */
const KNOWN_KEYS: ReadonlySet<string> = new Set([...configLists().map(({ list }) => list), 'policies'])
/** `target:` or `agnets:` is a configuration file with a typo, for the schema's "did you mean". */
const looksKnown = (key: string) => [...KNOWN_KEYS].some((known) => distance(key.toLowerCase(), known) <= 2)

export const FOREIGN_FILE = 'not a scansync configuration file'

/**
 * The message for a mapping none of whose keys is known (or nearly); undefined for a configuration
 * file. `x-…` keys say nothing either way: other tools have them too (docker-compose's extension
 * fields, OpenAPI's extensions), so a file is another tool's when it has other keys, none known.
 */
export function foreignFileMessage(data: object): string | undefined {
  const keys = Object.keys(data)
  const own = keys.filter((key) => !key.startsWith('x-'))
  if (own.length === 0 || own.some((key) => KNOWN_KEYS.has(key) || looksKnown(key))) return undefined
  const shown = keys.slice(0, 3).map((key) => JSON.stringify(key).slice(1, -1).replace(/[^\x20-\x7e]/g, '?')).join(', ')
  return `${FOREIGN_FILE}: its top-level keys are ${shown}${keys.length > 3 ? ', …' : ''}, none of ${[...KNOWN_KEYS].join(', ')}`
}

/** Levenshtein distance, for short keys only (longer ones are far from every known key anyway). */
function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2 || a.length > 40) return 3
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    previous = current
  }
  return previous[b.length]
}
