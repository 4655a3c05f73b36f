import { describe, expect, it } from 'vitest'
import { setAsideUntracked } from '../../src/plan/untracked.js'
import { KINDS } from '../../src/resources/index.js'
import { cli, emulator, exampleConfig, plan, tempdir } from './helpers.js'

describe('drift: a hidden secret the state has not recorded is not drift', () => {
  it('is set aside with a note, and exit 0 when nothing else differs', async () => {
    const em = await emulator({ obfuscate: true })
    const dir = exampleConfig()
    // Bring everything else in line, but lose the state: the secrets are then untracked again.
    expect((await cli(em, dir, ['apply', '.', '--auto-approve', '--state', 'first.json'])).code).toBe(0)
    const drift = await cli(em, dir, ['drift', '.', '--state', 'fresh.json'])
    expect(drift.code).toBe(0)
    expect(drift.stdout).toMatch(/No drift/)
    expect(drift.stderr).toMatch(/secret fields the service hides could not be checked .*site\.basic_auth\.password/)
    // plan still proposes sending them: apply would.
    const planned = await plan(em, dir, { state: 'fresh.json' })
    expect(planned.out).toMatch(/not yet tracked/)
  })

  it('keeps the other changes of the same resource', () => {
    const field = (path: string, reason?: 'not yet tracked') => ({ path, before: 1, after: 2, sensitive: Boolean(reason), ...(reason ? { reason } : {}) })
    const change = { kind: 'target' as const, id: 'T', name: null, action: 'update' as const, method: 'PATCH' as const, path: '/targets/T/' }
    const { plan: drift, untracked } = setAsideUntracked({
      changes: [
        { ...change, fields: [field('site.name'), field('site.basic_auth.password', 'not yet tracked')] },
        { ...change, id: 'U', fields: [field('site.basic_auth.password', 'not yet tracked')] },
      ],
      summary: { change: 2, unchanged: 3 },
    })
    expect(drift.changes.map((c) => [c.id, c.fields.map((f) => f.path)])).toEqual([['T', ['site.name']]])
    expect(drift.summary).toEqual({ change: 1, unchanged: 4 })
    expect(untracked).toHaveLength(2)
  })
})

describe('command-line manners', () => {
  it('--format github prints configuration errors as annotations on their lines', async () => {
    const em = await emulator()
    const dir = tempdir({ 'targets.yaml': 'targets:\n  - id: T1\n    site:\n      nmae: x\n' })
    const result = await cli(em, dir, ['plan', '.', '--format', 'github'])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^::error file=targets\.yaml,line=4,col=7,title=scansync%3A invalid configuration::target T1: site\.nmae: unknown field; did you mean "name"\?$/m)
    expect(em.requests()).toEqual([])
  })

  it('an unknown id names where it is declared and how to list the real ones', async () => {
    const em = await emulator()
    const dir = tempdir({ 'agents.yaml': 'agents:\n  - id: NoSuchAgent\n    name: x\n' })
    const result = await cli(em, dir, ['plan', '.'])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^agents\.yaml:2:\d+: agent NoSuchAgent not found/m)
    expect(result.stderr).toMatch(/scansync import --kind agent --all/)
  })

  it('--quiet prints only the summary line; apply --quiet --auto-approve skips the plan', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    const quiet = await cli(em, dir, ['plan', '.', '--quiet'])
    expect(quiet.code).toBe(0)
    expect(quiet.stdout).toMatch(/^Plan: \d+ to change, \d+ unchanged\.\n$/)
    const applied = await cli(em, dir, ['apply', '.', '--quiet', '--auto-approve'])
    expect(applied.code).toBe(0)
    expect(applied.stdout).not.toMatch(/^~ /m)
    expect(applied.stdout).toMatch(/^Apply: \d+ applied, 0 failed/m)
  })

  it('help shows the PATH argument', async () => {
    for (const command of ['validate', 'plan', 'drift', 'apply']) {
      const help = await cli(await emulator(), tempdir(), [command, '--help'])
      expect(help.stdout).toMatch(new RegExp(`scansync ${command} \\[PATH\\.\\.\\.\\]`))
    }
  })
})

describe('tolerant reading', () => {
  it('site.stack answered at the top level of a target is read', () => {
    const projected = KINDS.target.project({ id: 'T', site: { name: 'x' }, stack: [{ id: '1', name: 'php' }] })
    expect((projected.site as { stack: unknown }).stack).toEqual([{ id: '1', name: 'php' }])
  })
})
