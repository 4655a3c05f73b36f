// Emulators and temporary directories for a test file: started on 127.0.0.1, closed and removed
// after the file (not after each test, so that tests may run concurrently).
import { createServer } from 'node:net'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { afterAll } from 'vitest'
import { startEmulator, type Emulator, type EmulatorOptions, type EmulatorSeed } from '../../src/emulator/index.js'
import { ROOT } from './cli.js'

const running: Emulator[] = []
const dirs: string[] = []

afterAll(async () => {
  await Promise.all(running.splice(0).map((emulator) => emulator.close()))
})
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** The example seed, fresh (tests mutate copies). */
export const exampleSeed = (): EmulatorSeed => JSON.parse(readFileSync(join(ROOT, 'examples', 'emulator-seed.json'), 'utf8')) as EmulatorSeed

/** Starts emulators with this token and the example seed (unless the options say otherwise). */
export const emulatorWith =
  (token: string) =>
  async (options: EmulatorOptions = {}): Promise<Emulator> => {
    const started = await startEmulator({ token, seed: exampleSeed(), ...options })
    running.push(started)
    return started
  }

/** A temporary directory holding the given files (folders created). */
export function temporaryDirectory(prefix: string, files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  dirs.push(dir)
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true })
    writeFileSync(join(dir, name), content)
  }
  return dir
}

/**
 * A copy of a configuration directory (examples/config unless `from` says otherwise) at `to`,
 * without what the loader skips (names starting with `.`): the README's quick start applies
 * examples/config in the clone, which writes examples/config/.scansync/state.json keyed by the
 * emulator's demo token, and a copy holding it made every test of the copy see "another key".
 */
export function copyConfiguration(to: string, from: string = join(ROOT, 'examples', 'config')): void {
  cpSync(from, to, { recursive: true, filter: (source) => source === from || !basename(source).startsWith('.') })
}

/** A loopback port nothing listens on (taken, then given back): every connection to it is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}
