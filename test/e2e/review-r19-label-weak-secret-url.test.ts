// Review round 19 (a last sweep for secrets in what this round added): messages name a target
// declared without id by its URL (declaredLabel). A URL holding a weak secret of the run (a short
// variable's value, which the output step cannot replace) was printed in clear there, in the
// configuration's errors (text and github annotations), identity's errors and plan --out's
// refusals, while the plan's heading shows the same URL as (sensitive). Such a URL now names the
// target as (sensitive) in every message. The real CLI against the emulator.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const WEAK = 'qz7x'
const url = 'https://new-qz7x.example.com/'

describe('a target named by a URL holding a weak secret of the run, in messages', () => {
  it.each([['text'], ['github']])('plan --format %s: a label declared twice', async (format) => {
    const em = await emulator()
    const dir = tempdir({ 't.yaml': `targets:\n  - site: {name: New app, url: "${url}", desc: "\${SUFFIX}"}\n    labels:\n      - {name: web}\n      - {name: web}\n` })
    const run = await cli(em, dir, ['plan', 't.yaml', '--format', format], { SUFFIX: WEAK })
    expect(run.code).toBe(1)
    expect(run.stdout + run.stderr).toMatch(/target \(sensitive\): labels\[1\]: name "web" is declared twice/)
    expect((run.stdout + run.stderr).toLowerCase()).not.toContain(WEAK)
  })

  it('validate: a label declared twice', async () => {
    const em = await emulator()
    const dir = tempdir({ 't.yaml': `targets:\n  - site: {name: New app, url: "${url}", desc: "\${SUFFIX}"}\n    labels:\n      - {name: web}\n      - {name: web}\n` })
    const run = await cli(em, dir, ['validate', 't.yaml'], { SUFFIX: WEAK })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('target (sensitive): labels[1]')
    expect((run.stdout + run.stderr).toLowerCase()).not.toContain(WEAK)
  })

  it('plan: a target to create without site.name', async () => {
    const em = await emulator()
    const dir = tempdir({ 't.yaml': `targets:\n  - site: {url: "${url}", desc: "\${SUFFIX}"}\n` })
    const run = await cli(em, dir, ['plan', 't.yaml'], { SUFFIX: WEAK })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('target (sensitive): no live target has this URL')
    expect((run.stdout + run.stderr).toLowerCase()).not.toContain(WEAK)
  })

  it('plan --out: an agent named by a variable on such a target', async () => {
    const em = await emulator()
    const dir = tempdir({ 't.yaml': `targets:\n  - site: {name: New app, url: "${url}", desc: "\${SUFFIX}"}\n    scanning_agent: {name: "\${AGENT}"}\n` })
    const run = await cli(em, dir, ['plan', 't.yaml', '--out', 'p.json'], { SUFFIX: WEAK, AGENT: 'dc-lisbon-agent' })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('t.yaml:3: target (sensitive): scanning_agent.name')
    expect((run.stdout + run.stderr).toLowerCase()).not.toContain(WEAK)
  })
})
