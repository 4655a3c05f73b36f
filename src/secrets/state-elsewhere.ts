import { closeSync, constants, existsSync, fstatSync, openSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'

/**
 * The secrets state lives in `.scansync/` beside the first PATH (contract), so a configuration
 * file split into a folder (`config.yaml` → `config/`), or its paths given in another order, reads
 * a state that is not there, and its secrets are planned as "not yet tracked" with no word of why.
 * Where the state read does not exist, the places such a run left it: beside each other PATH, and
 * one folder up. Returns the first of them that records a resource these files declare (a state
 * of other resources, another configuration's, is not this one's), undefined when none does.
 */
export function stateLeftElsewhere(statePath: string, otherStatePaths: readonly string[], declared: ReadonlySet<string>): string | undefined {
  if (declared.size === 0 || existsSync(statePath)) return undefined
  const oneUp = resolve(dirname(statePath), '..', '..', '.scansync', 'state.json')
  for (const candidate of new Set([...otherStatePaths, oneUp])) {
    if (candidate === statePath || !existsSync(candidate)) continue
    if (recordsAny(candidate, declared)) return candidate
  }
  return undefined
}

/** Whether a state file records a secret of one of `declared` (`<kind>/<id>`); a file that cannot be read or parsed is not taken as one. */
function recordsAny(file: string, declared: ReadonlySet<string>): boolean {
  let fd: number | undefined
  try {
    // O_NONBLOCK: a FIFO there (nobody writing) opens without waiting for a writer, and is not
    // read, as a device or a socket is not: only a regular file may be a state.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK)
    if (!fstatSync(fd).isFile()) return false
    const resources = (JSON.parse(readFileSync(fd, 'utf8').replace(/^\uFEFF/, '')) as { resources?: unknown }).resources
    return typeof resources === 'object' && resources !== null && Object.keys(resources).some((key) => declared.has(key))
  } catch {
    return false
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
