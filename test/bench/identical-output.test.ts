// The benchmark's workload, scaled down, through plan and apply in-process: what they print must
// stay byte for byte what it was when the speed work began (expected/ holds that output). Making
// reads, loading or comparing faster must not change a plan or a report.
// To regenerate after an intended change of output: SCANSYNC_WRITE_EXPECTED=1 npx vitest run test/bench/identical-output.test.ts
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
// @ts-expect-error the benchmark's fixtures are plain JavaScript without types
import { buildAccount, writeConfig } from '../../bench/fixtures.js'
import type { EmulatorSeed } from '../../src/emulator/index.js'
import { apply, emulator, plan, tempdir } from '../e2e/helpers.js'

const EXPECTED = fileURLToPath(new URL('./expected/', import.meta.url))
const WRITE = process.env.SCANSYNC_WRITE_EXPECTED === '1'

/** 3 list pages of targets and of assets, one of agents; every tenth resource differs. */
const account = buildAccount({ targets: 230, assets: 230, agents: 24 }) as { seed: EmulatorSeed; config: object }

function matchesExpected(name: string, actual: string): void {
  const file = join(EXPECTED, name)
  if (WRITE || !existsSync(file)) {
    if (!WRITE) throw new Error(`${file} is missing: run with SCANSYNC_WRITE_EXPECTED=1 once, on the code whose output is the reference`)
    mkdirSync(EXPECTED, { recursive: true })
    writeFileSync(file, actual)
  }
  expect(actual === readFileSync(file, 'utf8'), `${name} differs from the stored output`).toBe(true)
}

describe('the benchmark workload prints what it printed before', () => {
  const started = emulator({ seed: account.seed })
  const dir = tempdir()
  writeConfig(dir, account.config, 100)
  const state = join(tempdir(), 'state.json')

  it.each(['text', 'json', 'markdown'] as const)('plan --format %s', async (format) => {
    const run = await plan(await started, dir, { format, state })
    expect(run.code, run.err).toBe(0)
    matchesExpected(`plan.${format}`, run.out)
  })

  it.each(['text', 'json'] as const)('apply --format %s', async (format) => {
    const em = await started
    em.seed(account.seed)
    const run = await apply(em, dir, { format, state: join(tempdir(), 'state.json') })
    expect(run.code, run.err).toBe(0)
    matchesExpected(`apply.${format}`, run.out)
  })
})
