// scansync audit reads the list pages of the kinds its rules name, and each list once (contract,
// "Policies": "checks the rules against every live resource of each kind they name"). Declared
// resources of other kinds (a target found by its URL, an agent by its name, a team by its name)
// made it read the target, agent and team lists for nothing — on a large account hundreds of
// pages, any of which failing failed the audit — and a rule on targets with a target declared by
// its URL read the whole target list twice.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from '../e2e/helpers.js'
import type { Emulator } from '../../src/emulator/index.js'

const DECLARED = `targets:
  - site: {name: Shop, url: "https://shop.example.com/"}
    scanning_agent: {name: dc-lisbon-agent}
agents:
  - name: dc-porto-agent
    teams: [{name: Platform}]
`

const rule = (kind: string, require: string) => `policies:
  - name: the-rule
    kind: ${kind}
    require: ${require}
    level: warning
`

const listReads = (em: Emulator) => em.requests().filter((r) => r.method === 'GET').map((r) => r.path)

beforeAll(async () => {
  await ensureBuilt()
}, 120_000)

describe('audit reads only what its rules need', () => {
  it('rules on assets alone: only the asset list is read, whatever targets and agents the files declare by name', async () => {
    const em = await emulator()
    const dir = tempdir({ 'config.yaml': DECLARED, 'policies.yaml': rule('asset', '{required: [id]}') })
    const { code, stdout, stderr } = await cli(em, dir, ['audit'])
    expect(stderr).toBe('')
    expect(stdout).toBe('Audit: 4 live resources checked against 1 rule; no policy violations.\n')
    expect(code).toBe(0)
    expect(listReads(em)).toEqual(['/discovery/assets/'])
  })

  it('a rule on targets, a target declared by its URL: the target list is read once, the declared target checked at its line', async () => {
    const em = await emulator()
    const dir = tempdir({ 'config.yaml': DECLARED, 'policies.yaml': rule('target', '{required: [scanning_agent], properties: {scanning_agent: {properties: {id: {const: 6NbVcX4zLkJh}}}}}') })
    const { code, stdout, stderr } = await cli(em, dir, ['audit', '--format', 'json'])
    expect(stderr).toBe('')
    const document = JSON.parse(stdout)
    expect(document.summary).toEqual({ checked: 4, rules: 1, errors: 0, warnings: 4 })
    expect(document.violations[0]).toMatchObject({ kind: 'target', id: '2DZkoZH8WMEM', file: 'config.yaml', line: 2 })
    expect(code).toBe(0)
    // The agent list to turn dc-lisbon-agent into its id; the target list once; no team list (no agent rule).
    expect(listReads(em).sort()).toEqual(['/scanning-agents/', '/targets/'])
  })
})
