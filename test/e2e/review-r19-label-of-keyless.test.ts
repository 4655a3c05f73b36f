// A target declared without id (to create, or found by its URL) is named by its URL in every
// message, as identity's messages name it; the checks of declared lists and the refusals of
// `plan --out` said `target : labels[1]: …`, naming nothing. The real CLI against the emulator.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const site = 'site: {name: New application, url: "https://new.example.com/"}'

describe('a target declared without id, in messages', () => {
  it('validate: a label declared twice names the target by its URL', async () => {
    const em = await emulator()
    const dir = tempdir({ 't.yaml': `targets:\n  - ${site}\n    labels:\n      - {name: web}\n      - {name: web}\n` })
    const run = await cli(em, dir, ['validate', 't.yaml'])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('t.yaml:5:9: target "https://new.example.com/": labels[1]: name "web" is declared twice')
  })

  it('validate: two colours for one label name the target by its URL', async () => {
    const em = await emulator()
    const dir = tempdir({ 't.yaml': `targets:\n  - ${site}\n    labels: [{name: web, color: red}]\n  - site: {name: Other, url: "https://other.example.com/"}\n    labels: [{name: web, color: blue}]\n` })
    const run = await cli(em, dir, ['validate', 't.yaml'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/target "https:\/\/other\.example\.com\/": labels\[0\]: the label "web" is declared with the colour/)
    expect(run.stderr).not.toMatch(/target : /)
  })

  it('plan --out: an agent named by a variable on a target to create names the target by its URL', async () => {
    const em = await emulator()
    const dir = tempdir({ 't.yaml': `targets:\n  - ${site}\n    scanning_agent: {name: "\${AGENT}"}\n` })
    const run = await cli(em, dir, ['plan', 't.yaml', '--out', 'p.json'], { AGENT: 'dc-lisbon-agent' })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('t.yaml:3: target "https://new.example.com/": scanning_agent.name')
    expect(run.stderr).not.toContain('dc-lisbon-agent')
  })
})
