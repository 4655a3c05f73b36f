import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { ensureBuilt } from '../config/helpers.js'
import { runCli } from '../helpers/cli.js'
import { connection, emulator, exampleSeed, planRun, tempDir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

// Review round 24 (a team's first week): import quotes the strings that YAML 1.1 readers (older
// editors, PyYAML-based tools in CI) take for something else, but only "22:00"-like times and
// yes/no/on/off. A label named 2025-06-01 (a date), 1_000, 1:30 (base 60), 0b101 or 190:20:30 was
// written plain: such a reader gets a date or a number back, and `<<` or `=` make it refuse the
// file. Each is now quoted; scansync reads the file as before and plans nothing.
const NAMES = ['2025-06-01', '2001-12-14t21:59:43.10-05:00', '1_000', '1_000.5', '1:2', '1:30.5', '190:20:30', '-1:30', '0b101', '0x_1F', '+0x1F', '0_7', '<<', '=']

describe('import: a label whose name a YAML 1.1 reader would retype', () => {
  it('is written quoted, reads back as the same text under YAML 1.1, and the next plan is empty', async () => {
    const seed = exampleSeed()
    seed.targets!.find((t) => t.id === '2DZkoZH8WMEM')!.labels = NAMES.map((name) => ({ name, color: 'green' }))
    const em = await emulator({ seed })
    const dir = tempDir()
    const imported = await runCli(['import', '--kind', 'target', '--id', '2DZkoZH8WMEM', '--out', dir], { env: connection(em) })
    expect(imported.code, imported.stderr).toBe(0)
    const text = readFileSync(join(dir, 'targets.yaml'), 'utf8')
    for (const version of ['1.1', '1.2'] as const) {
      const doc = parse(text, { version }) as { targets: Array<{ labels: Array<{ name: unknown }> }> }
      expect(doc.targets[0]!.labels.map((label) => label.name).sort()).toEqual([...NAMES].sort())
    }
    const plan = await planRun(em, dir)
    expect(plan.out + plan.err).toContain('No changes.')
    expect(plan.code).toBe(0)
  })
})
