// An auditor handed `scansync audit`'s report could not account for the resources checked: the
// JSON and the Markdown said how many live resources were read in all and listed the failures,
// but not which rules ran, over how many resources each, or how many broke each; a rule broken by
// nobody appeared nowhere, and in Markdown (cut at a hundred rows, errors first) the warnings of
// a large account were counted in one total and named nowhere. The report now lists every rule
// (JSON `policies`, a "Rules" table in Markdown) with its kind, level, description, the live
// resources of its kind checked against it and how many break it, valid against
// schemas/audit.schema.json.
import { describe, expect, it } from 'vitest'
import { cli, sharedEmulator, tempdir } from '../e2e/helpers.js'
import { AGENT_IN_TEAM, AUDITED_TARGETS, BLACKOUT_ENABLED } from './audit-rules.js'
import { createAjv } from '../../src/schema/ajv.js'

const AGENT_NAMED = `  - name: agent-named
    kind: agent
    require: {required: [name]}
`

const em = sharedEmulator()

describe('audit accounts for every rule and the resources checked against it', () => {
  it('json: policies lists each rule with its counts, valid against the schema', async () => {
    const dir = tempdir({ 'targets.yaml': AUDITED_TARGETS, 'policies.yaml': `policies:\n${BLACKOUT_ENABLED}${AGENT_IN_TEAM}${AGENT_NAMED}` })
    const json = await cli(em(), dir, ['audit', '--format', 'json'])
    expect(json.code).toBe(2)
    const document = JSON.parse(json.stdout)
    const validate = createAjv().getSchema('audit.schema.json')!
    expect(validate(document), JSON.stringify(validate.errors)).toBe(true)
    const broken = (name: string) => document.violations.filter((v: { policy: string }) => v.policy === name).length
    expect(document.policies).toEqual([
      { name: 'blackout-enabled', kind: 'target', level: 'error', description: 'Every target pauses scans in office hours', checked: 4, violations: broken('blackout-enabled') },
      { name: 'agent-in-team', kind: 'agent', level: 'warning', description: 'Every agent belongs to a team', checked: 3, violations: 1 },
      { name: 'agent-named', kind: 'agent', level: 'error', description: 'agent-named', checked: 3, violations: 0 },
    ])
    expect(broken('blackout-enabled')).toBeGreaterThan(0)
    expect(document.summary.checked).toBe(7)
  })

  it('markdown: a Rules table names every rule, broken or not, before the violations', async () => {
    const dir = tempdir({ 'targets.yaml': AUDITED_TARGETS, 'policies.yaml': `policies:\n${AGENT_IN_TEAM}${AGENT_NAMED}` })
    const markdown = await cli(em(), dir, ['audit', '--format', 'markdown'])
    expect(markdown.code).toBe(0)
    const out = markdown.stdout
    expect(out).toContain('| Rule | Level | Kind | Checked | Broken by | Description |')
    expect(out).toContain('| <code>agent-in-team</code> | warning | agent | 3 | 1 | Every agent belongs to a team |')
    expect(out).toContain('| <code>agent-named</code> | error | agent | 3 | 0 | agent-named |')
    expect(out.indexOf('| Rule |')).toBeLessThan(out.indexOf('| Policy |'))
  })
})
