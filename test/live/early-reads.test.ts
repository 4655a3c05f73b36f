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
import { EACH_PAGE_ONCE, listReads, onlyDeclaredListReads, READ_AHEAD_ACCOUNT, readAheadSetup } from '../helpers/read-ahead.js'

describe('reading ahead while the configuration loads', () => {
  it('reads each list page of the declared kinds once, and no other list', async () => {
    const { em, dir } = await readAheadSetup()
    const run = await plan(em, dir, { format: 'json', state: join(tempdir(), 'state.json') })
    expect(run.code, run.err).toBe(0)
    expect(listReads(em)).toEqual(EACH_PAGE_ONCE)
  })

  it('targets named by URL: the list identities are read from is the list read ahead, each page once', async () => {
    const { config } = READ_AHEAD_ACCOUNT
    const { em, dir } = await readAheadSetup({ ...config, targets: (config.targets as Array<Record<string, unknown>>).map(({ id: _id, ...rest }) => rest) })
    const run = await plan(em, dir, { format: 'json', state: join(tempdir(), 'state.json') })
    expect(run.code, run.err).toBe(0)
    expect(listReads(em)).toEqual(EACH_PAGE_ONCE)
  })

  it('an invalid configuration: "nothing was sent" holds (reads only, of declared kinds), and the run ends', async () => {
    const { em, dir } = await readAheadSetup()
    const last = readdirSync(dir).sort().at(-1)!
    appendFileSync(join(dir, last), '  - id: As99999999\n    state: NOT_A_STATE\n')
    const run = await plan(em, dir, { format: 'text', state: join(tempdir(), 'state.json') })
    expect(run.code).toBe(1)
    expect(run.err).toMatch(/nothing was sent\.\n$/)
    expect(onlyDeclaredListReads(em)).toBe(true)
  })

  // YAML (the loader, js-yaml, `yaml`) breaks lines at LF and CRLF only; a JavaScript RegExp's
  // `^` with the m flag also after U+2028 and U+2029, inside a string or a comment.
  it.each([
    ['in a quoted string', 'x-note: "see\u2028targets: none here"\n'],
    ['in a comment', '# note\u2029targets: x\n'],
  ])('"targets:" after U+2028 or U+2029 %s is no list of targets: it is not read', async (_where, line) => {
    const account = buildAccount({ targets: 0, assets: 0, agents: 1500 }) as { seed: EmulatorSeed; config: Record<string, unknown[]> }
    const em = await emulator({ seed: account.seed })
    const dir = tempdir()
    writeConfig(dir, { agents: account.config.agents }, 100)
    appendFileSync(join(dir, readdirSync(dir).sort()[0]!), line)
    const run = await plan(em, dir, { format: 'json', state: join(tempdir(), 'state.json') })
    expect(run.code, run.err).toBe(0)
    // The agents' list (and the teams', which checks the team ids they list): no targets'.
    expect(em.requests().filter((r) => r.path !== '/scanning-agents/' && r.path !== '/teams/')).toEqual([])
  })
})

describe('reading ahead changes no report', () => {
  it('a wrong base URL: the same words as without reading ahead (the requests counted, the first URL tried)', async () => {
    const { em, dir } = await readAheadSetup()
    const wrong = { SCANSYNC_API_URL: `${em.url}/api/v1` }
    const ahead = await plan(em, dir, { format: 'text', state: join(tempdir(), 'state.json') }, wrong)
    const unoptimised = await plan(em, dir, { format: 'text', state: join(tempdir(), 'state.json'), readsAhead: { take: async () => undefined } }, wrong)
    expect(unoptimised.code).toBe(1)
    expect(unoptimised.err).toContain(`every read got 404 Not Found (462 requests)`)
    expect(unoptimised.err).toContain(`The first URL tried: GET ${em.url}/api/v1/targets/?page=1&length=100.`)
    expect(ahead.code).toBe(1)
    expect(ahead.err).toBe(unoptimised.err)
  })
})
