// `apply --plan FILE` answers to the rules the plan was made with: the saved plan keeps them
// (under its checksum), and apply checks them on its fresh read, as apply does after a
// confirmation. Before, a saved plan held no rule: a hand change made after `plan --out` that
// broke a rule of level error was applied past it (exit 0), where `plan` at the same point exits 1.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { apply, emulator, plan, tempdir, writes } from './helpers.js'

const ASSET = '4TrEwQ9aSdFg'

/** The asset's state changes (a PUT, which sends its comment as read); a rule wants every asset commented. */
const files = (level: 'error' | 'warning') => ({
  'assets.yaml': `assets:\n  - id: ${ASSET}\n    state: HIDDEN\n`,
  'rules.yaml': `policies:\n  - name: asset-commented\n    description: Every asset says why it is in its state\n    kind: asset\n    require: {required: [comment]}\n    level: ${level}\n`,
})

describe('apply --plan checks the rules the plan was made with, on its fresh read', () => {
  it('a hand change since the plan that breaks a rule of level error refuses the apply: nothing sent, exit 1', async () => {
    const em = await emulator()
    const dir = tempdir(files('error'))
    const saved = await plan(em, dir, { out: 'p.json' })
    expect(saved.code, saved.err).toBe(0)
    const document = JSON.parse(readFileSync(join(dir, 'p.json'), 'utf8'))
    expect(document.policies).toEqual([
      { name: 'asset-commented', description: 'Every asset says why it is in its state', kind: 'asset', level: 'error', require: { required: ['comment'] }, source: { file: 'rules.yaml', line: 2, column: 5 } },
    ])
    // Someone clears the comment by hand: the plan's change is not stale (it does not touch it).
    em.mutate('asset', ASSET, { comment: null })
    em.clearRequests()
    const applied = await apply(em, dir, { plan: 'p.json' })
    expect(applied.code).toBe(1)
    expect(applied.err).toMatch(/policy asset-commented: asset 4TrEwQ9aSdFg: Every asset says why it is in its state/)
    expect(applied.err).toContain('nothing was sent')
    expect(writes(em)).toEqual([])
  })

  it('a warning is shown and the apply goes on', async () => {
    const em = await emulator()
    const dir = tempdir(files('warning'))
    expect((await plan(em, dir, { out: 'p.json' })).code).toBe(0)
    em.mutate('asset', ASSET, { comment: null })
    const applied = await apply(em, dir, { plan: 'p.json' })
    expect(applied.code, applied.err).toBe(0)
    expect(applied.err).toMatch(/policy asset-commented: asset 4TrEwQ9aSdFg/)
    expect((em.get('asset', ASSET) as { state: string }).state).toBe('HIDDEN')
  })

  it('with nothing changed since the plan, the rules pass and the plan applies', async () => {
    const em = await emulator()
    const dir = tempdir(files('error'))
    expect((await plan(em, dir, { out: 'p.json' })).code).toBe(0)
    const applied = await apply(em, dir, { plan: 'p.json' })
    expect(applied.code, applied.err).toBe(0)
    expect(applied.err).not.toMatch(/policy/)
  })

  it('a saved plan whose rules were taken out by hand is refused (checksum), nothing sent', async () => {
    const em = await emulator()
    const dir = tempdir(files('error'))
    expect((await plan(em, dir, { out: 'p.json' })).code).toBe(0)
    const document = JSON.parse(readFileSync(join(dir, 'p.json'), 'utf8'))
    delete document.policies
    writeFileSync(join(dir, 'p.json'), JSON.stringify(document))
    em.clearRequests()
    const applied = await apply(em, dir, { plan: 'p.json' })
    expect(applied.code).toBe(1)
    expect(applied.err).toMatch(/modified after it was written \(checksum mismatch\)/)
    expect(writes(em)).toEqual([])
  })
})
