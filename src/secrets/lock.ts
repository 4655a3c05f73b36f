import { randomUUID } from 'node:crypto'
import { readFileSync, rmSync, statSync, utimesSync, writeFileSync, type Stats } from 'node:fs'

/*
 * The secrets state's lock (`state.json.lock`): one writer at a time, across processes. It is a
 * file created exclusively, holding its owner's token. A lock older than STALE_LOCK_MS was left by
 * a process that died (writing takes milliseconds) and is broken, with two safeguards against
 * processes that all saw the same stale lock: one breaks at a time (`state.json.lock.break`,
 * created exclusively), and only the very lock it saw stale (same inode and time), never the one
 * another process took after breaking it. Each step is one synchronous call on a tiny file, so the
 * waiting loops (awaiting, or blocking at a process's last moment) share them.
 */

/** A lock older than this was left by a process that died. */
export const STALE_LOCK_MS = 30_000

const statIfAny = (path: string): Stats | undefined => {
  try {
    return statSync(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

const isStale = (stats: Stats) => Date.now() - stats.mtimeMs > STALE_LOCK_MS

/** Whether the lock is there, taken or refreshed at `time` or after: a process holds it (one just broken is taken at the next try). */
function refreshedSince(lock: string, time: number): boolean {
  const now = statIfAny(lock)
  return now !== undefined && now.mtimeMs >= time
}

/** The token in the lock (undefined when it is gone or cannot be read). */
function holderOf(lock: string): string | undefined {
  try {
    return readFileSync(lock, 'utf8')
  } catch {
    return undefined
  }
}

/** The tokens of the locks this process holds through holdLock (an awaited hold). */
const heldHere = new Set<string>()

/**
 * Whether an awaited hold of this very process holds the lock: one a synchronous write at the
 * process's last moment (a second Ctrl-C) can never wait out, as the hold cannot go on while it blocks.
 */
export const heldByThisProcess = (lock: string): boolean => {
  const holder = holderOf(lock)
  return holder !== undefined && heldHere.has(holder)
}

/** A token for this holder: what `release` checks before it removes the lock. */
export const lockToken = (): string => `${process.pid} ${randomUUID()}`

/** Takes the lock if it is free (true); otherwise breaks it if it is stale, for a later try (false). */
export function tryLock(lock: string, token: string): boolean {
  try {
    writeFileSync(lock, token, { flag: 'wx', mode: 0o600 })
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  const seen = statIfAny(lock)
  if (seen && isStale(seen)) breakStaleLock(lock, seen)
  return false
}

/** Removes the lock seen stale (`seen`), if it is still that lock, while no other process breaks it. */
export function breakStaleLock(lock: string, seen: Stats): void {
  const guard = `${lock}.break`
  try {
    writeFileSync(guard, '', { flag: 'wx', mode: 0o600 })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    // Another process is breaking it; a guard this old was left by one that died doing so.
    const left = statIfAny(guard)
    if (left && isStale(left)) rmSync(guard, { force: true })
    return
  }
  try {
    const now = statIfAny(lock)
    if (now && now.ino === seen.ino && now.mtimeMs === seen.mtimeMs) rmSync(lock, { force: true })
  } finally {
    rmSync(guard, { force: true })
  }
}

/** Removes the lock if this holder still holds it (a lock broken while it hung belongs to another). */
export function releaseLock(lock: string, token: string): void {
  try {
    if (readFileSync(lock, 'utf8') === token) rmSync(lock, { force: true })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
}

/**
 * Holds `lock`, waiting at most `waitMs` for it (an error with code ELOCKED after that), and keeps
 * it fresh while held, so that a long hold is never taken for a lock left by a process that died.
 * A lock not refreshed since the wait began is waited for past `waitMs`, until it is stale and
 * broken (at most STALE_LOCK_MS after its last refresh): one a process left as it was killed, just
 * before, is taken over, rather than refused as held when nothing holds it; and when another
 * process took it over first, that holder is waited for `waitMs` more. Resolves to what
 * releases it. `onWait`: called after every try that found the lock taken (or broke a stale one),
 * before it waits for the next.
 */
export async function holdLock(lock: string, waitMs: number, onWait?: () => void): Promise<() => void> {
  const token = lockToken()
  const started = Date.now()
  let deadline = started + waitMs
  // The holder (its token) of the lock waited for past the deadline, not refreshed since the wait began.
  let waitedOut: string | undefined
  for (let wait = 2; !tryLock(lock, token); wait = Math.min(wait * 2, 100)) {
    onWait?.()
    if (Date.now() > deadline) {
      const holder = holderOf(lock)
      // Broken and taken over (by another process waiting for it too): a live holder, waited for as long as any.
      if (waitedOut !== undefined && holder !== waitedOut) {
        deadline = Date.now() + waitMs
        waitedOut = undefined
      } else if (refreshedSince(lock, started)) throw Object.assign(new Error(`${lock} is held by another scansync`), { code: 'ELOCKED' })
      else waitedOut = holder
    }
    await new Promise((resolve) => setTimeout(resolve, wait))
  }
  const keepFresh = setInterval(() => {
    try {
      const now = new Date()
      utimesSync(lock, now, now)
    } catch {
      // Gone or unreachable: the release says nothing either.
    }
  }, STALE_LOCK_MS / 3)
  keepFresh.unref()
  heldHere.add(token)
  // A process that ends at once (a second Ctrl-C) leaves no lock for the next run to wait out.
  const atExit = () => releaseLock(lock, token)
  process.on('exit', atExit)
  return () => {
    clearInterval(keepFresh)
    process.off('exit', atExit)
    heldHere.delete(token)
    releaseLock(lock, token)
  }
}
