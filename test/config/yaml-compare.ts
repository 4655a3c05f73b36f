import type { ParsedFile } from '../../src/config/read-yaml.js'
import type { PathSegments } from '../../src/core/diagnostics.js'

// What the tests comparing the ways of reading YAML share: the positions the loader gives for a
// parsed file, and the damage their fuzzing does to a document.

/** Every place in the data: the root, each container and each value. */
export function placesOf(data: unknown, path: Array<string | number> = []): PathSegments[] {
  const places: PathSegments[] = [path]
  if (Array.isArray(data)) data.forEach((item, i) => places.push(...placesOf(item, [...path, i])))
  else if (data !== null && typeof data === 'object') {
    for (const [key, value] of Object.entries(data)) places.push(...placesOf(value, [...path, key]))
  }
  return places
}

/**
 * The position of every place and of its key. Read deepest-last-first, so that positions inside a
 * resource are found from that resource alone before anything needs the whole file.
 */
export const positionsOf = (parsed: ParsedFile) =>
  placesOf(parsed.data)
    .reverse()
    .map((path) => [{ ...parsed.locate(path) }, { ...parsed.locate(path, { key: true }) }])
    .reverse()
    .flat()


/** `text` with pieces inserted (or single characters removed) at the given places, in turn. */
export function damaged(text: string, damage: ReadonlyArray<readonly [at: number, piece: string, remove: boolean]>): string {
  for (const [at, piece, remove] of damage) {
    const p = at % (text.length + 1)
    text = remove ? text.slice(0, p) + text.slice(p + 1) : text.slice(0, p) + piece + text.slice(p)
  }
  return text
}
