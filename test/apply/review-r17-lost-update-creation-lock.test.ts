// Review round 17 (lost updates): an apply that creates a target waits for the lock another apply
// of the same configuration holds while it sends (creation-guard.ts). What the waiting apply then
// sends must come from a read made after that wait: the other apply's writes, and hand changes,
// land during it.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runApply } from '../../src/cli/run/apply.js'
import { captureIo, emulator, envFor, tempdir } from '../e2e/helpers.js'
import { whenWaiting } from '../helpers/creation-lock.js'

/** Creates a target (so the apply takes the creation lock) and hides an asset; its comment is undeclared. */
const CONFIG = `targets:
  - site: {name: New app, url: "https://newapp.example.com/"}
    scan_profile: lightning
assets:
  - id: 4TrEwQ9aSdFg
    state: HIDDEN
`

const ASSET = '4TrEwQ9aSdFg'

/** A configuration in a new folder, with another apply of it holding the creation lock; the lock's path. */
function heldByAnother(): { dir: string; lock: string } {
  const dir = tempdir({ 'config.yaml': CONFIG })
  mkdirSync(join(dir, '.scansync'), { recursive: true })
  const lock = join(dir, '.scansync', 'state.json.create.lock')
  writeFileSync(lock, 'another apply')
  return { dir, lock }
}

describe('an apply that waited for another apply\'s creation lock', () => {
  it.each([true, false])('sends undeclared values read after the wait, not before it (confirmed on a terminal: %s)', async (tty) => {
    const em = await emulator()
    const { dir, lock } = heldByAnother()
    // While the apply waits, the other apply (or someone by hand) changes the asset's comment, then releases the lock.
    let waited = false
    const io = whenWaiting({ ...captureIo({ env: envFor(em), cwd: dir, tty }), prompt: async () => 'yes' }, () => {
      waited = true
      em.mutate('asset', ASSET, { comment: 'written while the apply waited' })
      rmSync(lock, { force: true })
    })
    const code = await runApply({ paths: ['.'], format: 'text', autoApprove: !tty }, io)
    expect(waited).toBe(true)
    expect(code, io.err()).toBe(0)
    expect(io.err()).toContain(`Waiting for another apply of this configuration, which is creating targets (${lock})…`)
    const asset = em.get('asset', ASSET) as { state: string; comment: string | null }
    expect(asset.state).toBe('HIDDEN')
    expect(asset.comment).toBe('written while the apply waited')
  })

  it('a declared field written during the wait refuses the apply, naming the resource; nothing sent, and the lock is released', async () => {
    const em = await emulator()
    const { dir, lock } = heldByAnother()
    let waited = false
    const io = whenWaiting(captureIo({ env: envFor(em), cwd: dir }), () => {
      waited = true
      // The other apply, from a newer commit, archives the asset this YAML hides.
      em.mutate('asset', ASSET, { state: 'ARCHIVED' })
      rmSync(lock, { force: true })
    })
    em.clearRequests()
    const code = await runApply({ paths: ['.'], format: 'text', autoApprove: true }, io)
    expect(waited).toBe(true)
    expect(code).toBe(1)
    expect(io.err()).toContain(`asset ${ASSET} changed on the service while this apply waited for another apply of the configuration, which was creating targets; nothing was sent.`)
    expect(em.requests().filter((r) => r.method !== 'GET')).toEqual([])
    expect((em.get('asset', ASSET) as { state: string }).state).toBe('ARCHIVED')
    expect(existsSync(lock)).toBe(false)
  })
})
