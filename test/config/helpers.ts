import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { loadConfig, type LoadResult } from '../../src/config/load.js'
import type { Env } from '../../src/config/interpolate.js'
import { runCli as runCliIn, type CliOptions } from '../helpers/cli.js'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

const created: string[] = []

/**
 * A temporary directory holding the given files (relative paths; folders are created).
 * Removed by `removeTestdirs()`.
 */
export function testdir(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'scansync-test-'))
  created.push(dir)
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name)
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, content)
  }
  return dir
}

export function removeTestdirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true })
}

/** Loads a directory written with `testdir`, paths relative to it. */
export function load(files: Record<string, string | Buffer>, env: Env = {}, paths = ['.']): Promise<LoadResult> {
  return loadConfig(paths, { env, cwd: testdir(files) })
}

/** The 1-based line of the first line of `text` that contains `needle`. */
export function lineOf(text: string, needle: string, occurrence = 1): number {
  const lines = text.split('\n')
  let seen = 0
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].includes(needle) && ++seen === occurrence) return i + 1
  }
  throw new Error(`${JSON.stringify(needle)} not found`)
}

/** The 1-based column where `needle` starts on its line. */
export function columnOf(text: string, needle: string): number {
  const line = text.split('\n')[lineOf(text, needle) - 1]
  return line.indexOf(needle) + 1
}

const newestMtime = (dir: string, ext: string): number => {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith(ext)) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs)
  }
  return newest
}

/** Runs `npm run build` when dist/ is missing or older than src/ or schemas/. */
export async function ensureBuilt(): Promise<void> {
  let built = 0
  try {
    built = statSync(join(ROOT, 'dist', 'cli', 'commands', 'validate.js')).mtimeMs
  } catch {}
  const sources = Math.max(newestMtime(join(ROOT, 'src'), '.ts'), newestMtime(join(ROOT, 'schemas'), '.json'))
  if (built >= sources) return
  await promisify(execFile)('npm', ['run', 'build', '--silent'], { cwd: ROOT })
}

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs `scansync ARGS` in `cwd` (in-process where that proves the same; see test/helpers/cli.ts). */
export async function runCli(args: string[], options: CliOptions & { cwd: string }): Promise<CliResult> {
  const { code, stdout, stderr } = await runCliIn(args, options)
  return { code, stdout, stderr }
}

/**
 * `scansync validate` of one file, `a.yaml`, holding `text`, which must be refused (exit 1): its
 * error lines as they start, `a.yaml:LINE:COLUMN: …`, and the whole of stderr.
 */
export async function refusedFile(text: string, env: CliOptions['env'] = {}): Promise<{ lines: string[]; stderr: string }> {
  const dir = testdir({ 'a.yaml': text })
  const { code, stderr } = await runCli(['validate', dir], { cwd: dir, env })
  if (code !== 1) throw new Error(`validate exited ${code}, not 1:\n${stderr}`)
  const lines = stderr.split('\n').filter((line) => line.startsWith('a.yaml:') || line.includes('/a.yaml:')).map((line) => line.slice(line.indexOf('a.yaml:')))
  return { lines, stderr }
}
