// What the tests of reading ahead share (test/live/early-reads.test.ts in-process,
// test/cli/reads-from-argv.test.ts through bin/run.js): an account large enough to be read
// ahead, and what "each page of the declared kinds read once, nothing else" looks like.
// @ts-expect-error the benchmark's fixtures are plain JavaScript without types
import { buildAccount, writeConfig } from '../../bench/fixtures.js'
import type { Emulator, EmulatorSeed } from '../../src/emulator/index.js'
import { emulator, tempdir } from '../e2e/helpers.js'

/** Targets and assets only (about 100 KB of YAML: read ahead); 3 pages of each. */
export const READ_AHEAD_ACCOUNT = buildAccount({ targets: 230, assets: 230, agents: 0 }) as { seed: EmulatorSeed; config: Record<string, unknown[]> }
delete READ_AHEAD_ACCOUNT.config.agents

/** An emulator holding the account, and a directory declaring `config` (the account's, unless given), 100 resources a file. */
export async function readAheadSetup(config: Record<string, unknown[]> = READ_AHEAD_ACCOUNT.config): Promise<{ em: Emulator; dir: string }> {
  const em = await emulator({ seed: READ_AHEAD_ACCOUNT.seed })
  const dir = tempdir()
  writeConfig(dir, config, 100)
  return { em, dir }
}

/** The requests a run sent, as `METHOD path page`, sorted. */
export const listReads = (em: Emulator): string[] => em.requests().map((r) => `${r.method} ${r.path} ${r.query.page ?? ''}`).sort()

/** Pages 1 to 3 of the two declared kinds' lists, each once. */
export const EACH_PAGE_ONCE = ['/discovery/assets/', '/targets/'].flatMap((path) => [1, 2, 3].map((page) => `GET ${path} ${page}`)).sort()

/** Whether every request a run sent is a read of a declared kind's list (nothing written, nothing else read). */
export const onlyDeclaredListReads = (em: Emulator): boolean =>
  em.requests().every((r) => r.method === 'GET' && (r.path === '/targets/' || r.path === '/discovery/assets/'))
