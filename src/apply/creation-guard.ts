import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { ScansyncError } from '../core/errors.js'
import type { Requester } from '../live/read.js'
import type { Ready } from '../plan/staleness.js'
import { holdLock } from '../secrets/lock.js'
import { freshCreations } from './create.js'

/**
 * How long an apply with targets to create waits for another that is creating targets for the
 * same configuration (the same state file) before it gives up, sending nothing.
 */
export const CREATION_WAIT_MS = 120_000

/**
 * Two applies of one configuration started together (a job run twice) would each find no target
 * with a new URL and each create it. Before an apply sends a creation, it takes the lock beside the
 * state file (`state.json.create.lock`), held until its requests are done, and reads the target list
 * again: a target with the URL found now (the other run created it) refuses the apply, nothing
 * sent. Runs that do not share the state file are not coordinated. Resolves to what releases the
 * lock (nothing to release when no target is to be created) and whether the lock had to be waited
 * for: the other apply sent its writes meanwhile, so what was read before the wait is old (apply.ts
 * reads the resources to update again).
 */
export async function guardCreations(ready: readonly Ready[], client: Requester, statePath: string, onWait?: (lock: string) => void): Promise<{ release: () => void; waited: boolean }> {
  const creations = ready.filter((item) => item.planned.change.action === 'create').map((item) => item.planned)
  if (creations.length === 0) return { release: () => undefined, waited: false }
  const lock = `${statePath}.create.lock`
  let release: () => void
  let waited = false
  try {
    await mkdir(dirname(statePath), { recursive: true })
    let told = false
    release = await holdLock(lock, CREATION_WAIT_MS, () => {
      waited = true
      // Said once another apply holds it: a lock left by one that died was just broken, and is
      // taken at the next try, with no other apply to wait for.
      if (told || !existsSync(lock)) return
      told = true
      onWait?.(lock)
    })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ELOCKED') throw new ScansyncError(`another apply of this configuration has been creating targets for ${CREATION_WAIT_MS / 1000} s (${lock}); nothing was sent. Run scansync apply again once it is done.`)
    // A folder the run cannot write (a read-only checkout, another user's .scansync): without the
    // lock a creation is not coordinated, and the state recording it could not be written either.
    // Said as such, before any write; it was an "unexpected failure" asking for a bug report.
    throw new ScansyncError(`cannot take the lock ${lock} (${code ?? (error as Error).message}) that keeps two applies from creating one target twice; nothing was sent. The secrets state's folder must be writable, or --state must name a file in one that is.`)
  }
  try {
    const fresh = await freshCreations(creations, client)
    if (fresh.stale.length > 0) {
      const urls = fresh.stale.map((p) => JSON.stringify(p.desired.naturalKey?.value ?? p.change.naturalKey?.value)).join(', ')
      throw new ScansyncError(`a target with the URL ${urls} exists now (another run created it, or someone by hand); nothing was sent. Run scansync apply again to see the new plan.`)
    }
    return { release, waited }
  } catch (error) {
    release()
    throw error
  }
}
