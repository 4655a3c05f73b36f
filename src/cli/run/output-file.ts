import { mkdir, stat } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { UsageError } from '../../core/errors.js'

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
    throw new UsageError(`${flag} ${file}: cannot create its directory (${(error as NodeJS.ErrnoException).code ?? String(error)})`)
  }
}
