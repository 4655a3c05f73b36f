// The example configuration against a service where two declared resources were deleted by hand:
// shared by the tests of drift's report of them and of plan's refusal.
import { readFileSync } from 'node:fs'
import { exampleSeed } from './helpers.js'

/** The example seed without the staging shop (a target) and one asset, as if deleted by hand in the web interface. */
export function seedWithDeletions() {
  const seed = exampleSeed()
  seed.targets = seed.targets!.filter((t) => t.id !== '7QwErTy2UiOp')
  seed.assets = seed.assets!.filter((a) => a.id !== '4TrEwQ9aSdFg')
  return seed
}

/** The 1-based line of a file's first line holding `needle`. */
export const lineOf = (file: string, needle: string): number => readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(needle)) + 1
