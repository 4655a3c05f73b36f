import { constants, lstatSync, renameSync, rmSync, writeFileSync, type Stats } from 'node:fs'
import { access, lstat, rename, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'

/**
 * A file written whole: to a temporary file beside it, then renamed over it, so that there is
 * never half a file. The temporary file is created anew (never opened through a link a
 * repository could hold in its place: `O_EXCL`), and anything but a file already at `path` (a
 * link, a device, a pipe) is refused rather than written through or replaced.
 */
export async function writeWholeFile(path: string, text: string, mode = 0o666): Promise<void> {
  refuseSpecial(path, await lstat(path).catch(absent))
  const temporary = temporaryPath(path)
  try {
    await rm(temporary, { force: true })
    await writeFile(temporary, text, { mode, flag: 'wx' })
    await rename(temporary, path)
  } catch (error) {
    // The write's own error is the one to report, not a failure to clean up after it.
    await rm(temporary, { force: true }).catch(() => undefined)
    throw error
  }
}

/** The same, at once: for the last moment of a process (a second Ctrl-C), where nothing can be awaited. */
export function writeWholeFileSync(path: string, text: string, mode = 0o666): void {
  let found: Stats | undefined
  try {
    found = lstatSync(path)
  } catch (error) {
    found = absent(error)
  }
  refuseSpecial(path, found)
  const temporary = temporaryPath(path)
  try {
    rmSync(temporary, { force: true })
    writeFileSync(temporary, text, { mode, flag: 'wx' })
    renameSync(temporary, path)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
}

/**
 * Throws what writeWholeFile would meet at `path`, before anything is written: something other
 * than a file at its place, or a folder this process cannot write to (the nearest that exists: the
 * write creates the rest). An apply asks before its first request, not after its last.
 */
export async function checkWritable(path: string): Promise<void> {
  refuseSpecial(path, await lstat(path).catch(absent))
  for (let folder = dirname(resolve(path)); ; folder = dirname(folder)) {
    const found = await stat(folder).catch(absent)
    if (found === undefined && dirname(folder) !== folder) continue
    if (found !== undefined && !found.isDirectory()) throw Object.assign(new Error(`${folder} is not a folder`), { code: 'ENOTDIR' })
    await access(folder, constants.W_OK)
    return
  }
}

// One writer at a time writes a given file (the state's lock), so the process id makes the name unique enough.
const temporaryPath = (path: string) => `${path}.${process.pid}.tmp`

const absent = (error: unknown): undefined => {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
  throw error
}

/**
 * What is at the file's place already must be a file: a link, a device or a pipe there (a
 * repository's link to a file elsewhere, `--out /dev/stdout`) is neither written through nor
 * replaced (as root, the rename would replace `/dev/stdout` itself).
 */
function refuseSpecial(path: string, found: Stats | undefined): void {
  if (found === undefined || found.isFile()) return
  const what = found.isSymbolicLink() ? 'a symbolic link' : found.isDirectory() ? 'a directory' : 'not a regular file'
  throw Object.assign(new Error(`${path} is ${what}: scansync writes its files whole, and neither writes through nor replaces anything else`), { code: 'ENOTREGULAR' })
}

/**
 * A failed write in words: what refuseSpecial found at the place, or the lock another process
 * holds (their codes, ENOTREGULAR and ELOCKED, are scansync's own and name nothing a user can act
 * on), otherwise the system's code.
 */
export function writeFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ENOTREGULAR' || code === 'ELOCKED' ? (error as Error).message : (code ?? (error instanceof Error ? error.message : String(error)))
}
