import { realpathSync } from 'node:fs'
import { mkdir, stat } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { UsageError } from '../../core/errors.js'
import { checkWritable, writeFailure } from '../../core/whole-file.js'

/**
 * Makes `file` ready to be written, before any work: its parent directories are created (as
 * --state does), and a directory in its place is refused in words rather than with EISDIR.
 */
export async function prepareOutputFile(flag: string, file: string, cwd: string): Promise<void> {
  const full = resolve(cwd, file)
  const info = await stat(full).catch(() => undefined)
  if (info?.isDirectory()) throw new UsageError(`${flag} ${file} is a directory; name a file in it, e.g. ${flag} ${file.replace(/[\\/]+$/, '')}/release.plan.json`)
  try {
    await mkdir(dirname(full), { recursive: true })
  } catch (error) {
    // A recursive mkdir names no cause of its own (EEXIST for a file on the way, ENOENT on a
    // read-only file system): the first folder that exists says it.
    const cause = await checkWritable(full).then(() => error, (found: unknown) => found)
    throw new UsageError(`${flag} ${file}: cannot create its directory (${writeFailure(cause)})`)
  }
}

/** A file's path with its folder's links resolved (as spelt when the folder is not there). */
function realFilePath(path: string): string {
  try {
    return join(realpathSync.native(dirname(path)), basename(path))
  } catch {
    return path
  }
}

/**
 * Whether `plan --out FILE` names the secrets state the run reads (`.scansync/state.json`, or
 * --state): the saved plan replaced the records of every secret applied, and each run after said
 * the state was "not a scansync state file".
 */
export const isStateFile = (file: string, statePath: string, cwd: string): boolean => realFilePath(resolve(cwd, file)) === realFilePath(statePath)
