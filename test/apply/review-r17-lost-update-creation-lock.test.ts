// Review round 17 (lost updates): an apply that creates a target waits for the lock another apply
// of the same configuration holds while it sends (creation-guard.ts). What the waiting apply then
// sends must come from a read made after that wait: the other apply's writes, and hand changes,
// land during it.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runApply } from '../../src/cli/run/apply.js'
import { captureIo, emulator, envFor, tempdir } from '../e2e/helpers.js'
import { startProxy } from '../e2e/proxy.js'

/** Creates a target (so the apply takes the creation lock) and hides an asset; its comment is undeclared. */
const CONFIG = `targets:
  - site: {name: New app, url: "https://newapp.example.com/"}
    scan_profile: lightning
assets:
  - id: 4TrEwQ9aSdFg
    state: HIDDEN
`

const ASSET = '4TrEwQ9aSdFg'
const readsAsset = (path: string) => path === `/discovery/assets/${ASSET}/` || path === '/discovery/assets/'

describe('an apply that waited for another apply\'s creation lock', () => {
  it.each([true, false])('sends undeclared values read after the wait, not before it (confirmed on a terminal: %s)', async (tty) => {
    const em = await emulator()
    const dir = tempdir({ 'config.yaml': CONFIG })
    // Another apply of this configuration holds the lock while it sends.
    mkdirSync(join(dir, '.scansync'), { recursive: true })
    const lock = join(dir, '.scansync', 'state.json.create.lock')
    writeFileSync(lock, 'another apply')
    // The last read of the asset before the wait (the plan's, or the one after the confirmation):
    // once it is answered, the other apply (or someone by hand) changes the asset's comment, and
    // then the lock is released. An apply that reads after the lock reads the new comment.
    let confirmed = !tty
    let released = false
    const release = () => {
      if (released) return
      released = true
      em.mutate('asset', ASSET, { comment: 'written while the apply waited' })
      rmSync(lock, { force: true })
    }
    const proxy = await startProxy(em.url, async (request, forward) => {
      const answer = await forward()
      if (confirmed && request.method === 'GET' && readsAsset(request.path)) setTimeout(release, 50)
      return answer
    })
    // Without a read of the asset before the write, the lock is released all the same.
    const fallback = setTimeout(release, 3000)
    const io = { ...captureIo({ env: envFor(em, { SCANSYNC_API_URL: proxy.url }), cwd: dir, tty }), prompt: async () => ((confirmed = true), 'yes') }
    const code = await runApply({ paths: ['.'], format: 'text', autoApprove: !tty }, io)
    clearTimeout(fallback)
    expect(released).toBe(true)
    expect(code, io.err()).toBe(0)
    const asset = em.get('asset', ASSET) as { state: string; comment: string | null }
    expect(asset.state).toBe('HIDDEN')
    expect(asset.comment).toBe('written while the apply waited')
  })

  it('a declared field written during the wait refuses the apply, naming the resource; nothing sent, and the lock is released', async () => {
    const em = await emulator()
    const dir = tempdir({ 'config.yaml': CONFIG })
    mkdirSync(join(dir, '.scansync'), { recursive: true })
    const lock = join(dir, '.scansync', 'state.json.create.lock')
    writeFileSync(lock, 'another apply')
    let released = false
    const proxy = await startProxy(em.url, async (request, forward) => {
      const answer = await forward()
      if (!released && request.method === 'GET' && readsAsset(request.path)) {
        released = true
        setTimeout(() => {
          // The other apply, from a newer commit, archives the asset this YAML hides.
          em.mutate('asset', ASSET, { state: 'ARCHIVED' })
          rmSync(lock, { force: true })
        }, 50)
      }
      return answer
    })
    em.clearRequests()
    const io = captureIo({ env: envFor(em, { SCANSYNC_API_URL: proxy.url }), cwd: dir })
    const code = await runApply({ paths: ['.'], format: 'text', autoApprove: true }, io)
    expect(released).toBe(true)
    expect(code).toBe(1)
    expect(io.err()).toContain(`asset ${ASSET} changed on the service while this apply waited for another apply of the configuration, which was creating targets; nothing was sent.`)
    expect(em.requests().filter((r) => r.method !== 'GET')).toEqual([])
    expect((em.get('asset', ASSET) as { state: string }).state).toBe('ARCHIVED')
    expect(existsSync(lock)).toBe(false)
  })
})
