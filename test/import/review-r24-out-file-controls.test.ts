import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { ensureBuilt } from '../config/helpers.js'
import { runCli } from '../helpers/cli.js'
import { connection, emulator, exampleSeed, planRun, tempDir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

// Review round 24 (a team's first week): `import --out DIR` wrote a live value holding DEL, a C1
// control, a line separator or a bidirectional mark with the character itself inside its double
// quotes (on stdout it is an escape). YAML allows none of DEL and the C1 controls in a stream:
// PyYAML-based tools refuse the file ("unacceptable character #x007f"), YAML 1.1 readers fold NEL
// and U+2028 into a space, and the marks reorder the line in an editor and a review diff.
// The file now holds the escapes, as stdout does; scansync reads them back to the same text.
const COMMENT = 'pasted\u007f from a form'
const DESC = 'next\u0085line and csi\u009b'
const AGENT = 'dc\u2028lisbon'
const LABEL = 'rtl\u200fmark'
const RAW = /[\u007f-\u009f\u2028\u2029\u200e\u200f]/

describe('import --out: a live value holding a character YAML does not allow raw', () => {
  it('is written as its escape, reads back as the same text, and the next plan is empty', async () => {
    const seed = exampleSeed()
    const shop = seed.targets!.find((t) => t.id === '2DZkoZH8WMEM')!
    shop.site!.desc = DESC
    shop.labels = [{ name: LABEL }]
    seed.assets![0]!.comment = COMMENT
    seed.agents![0]!.name = AGENT
    const em = await emulator({ seed })
    const dir = tempDir()
    const imported = await runCli(['import', '--kind', 'target,asset,agent', '--all', '--out', dir], { env: connection(em) })
    expect(imported.code, imported.stderr).toBe(0)
    const files = ['targets.yaml', 'assets.yaml', 'agents.yaml'].map((name) => readFileSync(join(dir, name), 'utf8'))
    for (const text of files) expect(text).not.toMatch(RAW)
    const [targets, assets, agents] = files.map((text) => parse(text) as Record<string, Array<Record<string, unknown>>>)
    expect(targets!.targets!.find((t) => t.id === '2DZkoZH8WMEM')).toMatchObject({ site: { desc: DESC }, labels: [{ name: LABEL }] })
    expect(assets!.assets!.find((a) => a.id === seed.assets![0]!.id)).toMatchObject({ comment: COMMENT })
    expect(agents!.agents!.find((a) => a.id === seed.agents![0]!.id)).toMatchObject({ name: AGENT })
    const plan = await planRun(em, dir)
    expect(plan.out + plan.err).toContain('No changes.')
    expect(plan.code).toBe(0)
  })
})
