import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Plan } from '../../src/plan/model.js'
import { runCli } from '../helpers/cli.js'
import { connection, emulator, exampleSeed, planRun, tempDir, validateRun } from './helpers.js'

// Review round 19 (import then plan): on stdout every text passes the output step, which writes
// the line and paragraph separators, C1 controls and bidirectional marks as `\uXXXX`. A live value
// holding one (an agent named "dc\u2028lisbon", a comment with a right-to-left mark) was written as
// a plain scalar, where `\u2028` is six characters: `scansync import … > agents.yaml` then planned
// to rename the agent to "dc\\u2028lisbon", and apply would have sent it.
const VALUES = ['dc\u2028lisbon', 'para\u2029graph', 'rtl\u200fmark', 'over\u202eride', 'c1\u0085next', 'arabic\u061cmark']

describe('import to stdout: a live value holding a character the output step escapes', () => {
  it('is written so that it reads back as it is, and the next plan is empty', async () => {
    const seed = exampleSeed()
    seed.agents!.forEach((agent, i) => (agent.name = VALUES[i]!))
    const shop = seed.targets!.find((t) => t.id === '2DZkoZH8WMEM')!
    shop.site!.desc = VALUES[3]
    shop.labels = VALUES.slice(4).map((name) => ({ name }))
    const asset = seed.assets![0]!
    asset.comment = VALUES[2]
    const em = await emulator({ seed })
    const imported = await runCli(['import', '--kind', 'target,asset,agent', '--all'], { env: connection(em) })
    expect(imported.code, imported.stderr).toBe(0)
    for (const value of VALUES) expect(imported.stdout).not.toContain(value)
    const dir = tempDir()
    writeFileSync(join(dir, 'all.yaml'), imported.stdout)
    const valid = await validateRun(dir)
    expect(valid.code, valid.out + valid.err).toBe(0)
    const plan = await planRun(em, dir, {}, 'json')
    expect(plan.code === 0 ? [] : plan.code === 2 ? (JSON.parse(plan.out) as Plan).changes : plan.err).toEqual([])
    expect(plan.code).toBe(0)
  })
})
