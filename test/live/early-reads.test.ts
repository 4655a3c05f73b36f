// Reading ahead while a large configuration loads (src/cli/run/early-reads.ts, src/live/prefetch.ts):
// only list reads of the declared kinds, each page asked once, and an invalid configuration
// still says truthfully that nothing was sent (no write was).
import { appendFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error the benchmark's fixtures are plain JavaScript without types
import { buildAccount, writeConfig } from '../../bench/fixtures.js'
import type { EmulatorSeed } from '../../src/emulator/index.js'
import { emulator, plan, tempdir } from '../e2e/helpers.js'

/** Targets and assets only (about 100 KB of YAML: read ahead); 3 pages of each. */
const account = buildAccount({ targets: 230, assets: 230, agents: 0 }) as { seed: EmulatorSeed; config: Record<string, unknown[]> }
delete account.config.agents

/** The requests a run sent, as `METHOD path page`, sorted. */
const listReads = (em: Awaited<ReturnType<typeof emulator>>) => em.requests().map((r) => `${r.method} ${r.path} ${r.query.page ?? ''}`).sort()
/** Pages 1 to 3 of the two declared kinds' lists, each once. */
const EACH_PAGE_ONCE = ['/discovery/assets/', '/targets/'].flatMap((path) => [1, 2, 3].map((page) => `GET ${path} ${page}`)).sort()

describe('reading ahead while the configuration loads', () => {
  it('reads each list page of the declared kinds once, and no other list', async () => {
    const em = await emulator({ seed: account.seed })
    const dir = tempdir()
    writeConfig(dir, account.config, 100)
    const run = await plan(em, dir, { format: 'json', state: join(tempdir(), 'state.json') })
    expect(run.code, run.err).toBe(0)
    expect(listReads(em)).toEqual(EACH_PAGE_ONCE)
  })

  it('targets named by URL: the list identities are read from is the list read ahead, each page once', async () => {
    const em = await emulator({ seed: account.seed })
    const dir = tempdir()
    const config = { ...account.config, targets: (account.config.targets as Array<Record<string, unknown>>).map(({ id: _id, ...rest }) => rest) }
    writeConfig(dir, config, 100)
    const run = await plan(em, dir, { format: 'json', state: join(tempdir(), 'state.json') })
    expect(run.code, run.err).toBe(0)
    expect(listReads(em)).toEqual(EACH_PAGE_ONCE)
  })

  it('an invalid configuration: "nothing was sent" holds (reads only, of declared kinds), and the run ends', async () => {
    const em = await emulator({ seed: account.seed })
    const dir = tempdir()
    writeConfig(dir, account.config, 100)
    const last = readdirSync(dir).sort().at(-1)!
    appendFileSync(join(dir, last), '  - id: As99999999\n    state: NOT_A_STATE\n')
    const run = await plan(em, dir, { format: 'text', state: join(tempdir(), 'state.json') })
    expect(run.code).toBe(1)
    expect(run.err).toMatch(/nothing was sent\.\n$/)
    expect(em.requests().every((r) => r.method === 'GET' && (r.path === '/targets/' || r.path === '/discovery/assets/'))).toBe(true)
  })
})
