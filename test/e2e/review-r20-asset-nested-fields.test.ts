// The interface document leaves open where a discovered asset's answer keeps owners, comment and
// labels relative to its `target` object ("they are listed after it"). A service that keeps them
// inside `target` must not have them wiped by an apply of another field: the PUT is whole, built
// from the live asset where the YAML does not declare a field.
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'
import { reshapingProxy } from './proxy.js'

const ASSET = '8YuIoP3lKjHg'
const NESTED = ['owners', 'comment', 'labels'] as const

/** An asset answer of the emulator with owners, comment and labels moved inside `target`. */
function nestInsideTarget(asset: Record<string, unknown>): void {
  const target = { ...(asset.target as Record<string, unknown>) }
  for (const field of NESTED) {
    target[field] = asset[field]
    delete asset[field]
  }
  asset.target = target
}

describe('an asset whose answer keeps owners, comment and labels inside target', () => {
  it('plans them as they are, and an apply of its state keeps them', async () => {
    const em = await emulator()
    const proxy = await reshapingProxy(em.url, '/discovery/assets/', nestInsideTarget)
    const env = { SCANSYNC_API_URL: proxy.url }
    // The owners and comment the asset has: nothing to change there; only its state.
    const dir = tempdir({
      'assets.yaml': `assets:\n  - id: ${ASSET}\n    state: ARCHIVED\n    owners: [marketing-agency]\n    comment: Marketing microsite, scanned by the agency\n`,
    })
    const planned = await cli(em, dir, ['plan', '.', '--format', 'json'], env)
    expect(planned.code, planned.stderr).toBe(0)
    const change = (JSON.parse(planned.stdout) as { changes: Array<{ fields: Array<{ path: string }> }> }).changes[0]
    expect(change.fields.map((f) => f.path)).toEqual(['state'])

    const state = tempdir({ 'assets.yaml': `assets:\n  - id: ${ASSET}\n    state: ARCHIVED\n` })
    const applied = await cli(em, state, ['apply', '.', '--auto-approve'], env)
    expect(applied.code, applied.stderr).toBe(0)
    const put = em.requests().find((r) => r.method === 'PUT')
    expect(put?.body).toMatchObject({ state: 'ARCHIVED', owners: [{ name: 'marketing-agency' }], comment: 'Marketing microsite, scanned by the agency' })
    const asset = em.get('asset', ASSET) as Record<string, unknown>
    expect(asset.owners).toEqual([expect.objectContaining({ name: 'marketing-agency' })])
    expect(asset.comment).toBe('Marketing microsite, scanned by the agency')
  })
})

// The edge-of-nothing review: the document does not mark an asset answer's owners and labels as
// always there. A service that leaves them out (none answered, top level or inside `target`) had
// a comment-only change PUT `owners: []` and `labels: []`, resetting what it had not shown, and no
// plan said so. A member the answer leaves out is left out of the PUT (whose members but `name` the
// document makes optional): it cannot be worse than sending it empty.
describe('an asset whose answer leaves out owners and labels', () => {
  it('an apply of its comment sends neither (the PUT carries what was answered and what the YAML declares)', async () => {
    const em = await emulator()
    const proxy = await reshapingProxy(em.url, '/discovery/assets/', (asset) => {
      delete asset.owners
      delete asset.labels
    })
    const dir = tempdir({ 'assets.yaml': `assets:\n  - id: ${ASSET}\n    comment: Reviewed\n` })
    const applied = await cli(em, dir, ['apply', '.', '--auto-approve'], { SCANSYNC_API_URL: proxy.url })
    expect(applied.code, applied.stderr).toBe(0)
    const put = em.requests().find((r) => r.method === 'PUT')
    expect(put?.body).toMatchObject({ comment: 'Reviewed' })
    expect(Object.keys(put?.body as object)).not.toContain('owners')
    expect(Object.keys(put?.body as object)).not.toContain('labels')
  })

  it('labels answered as an empty list are still sent empty: only a member answered nowhere is left out', async () => {
    const em = await emulator()
    const proxy = await reshapingProxy(em.url, '/discovery/assets/', (asset) => {
      delete asset.owners
      asset.labels = []
    })
    const dir = tempdir({ 'assets.yaml': `assets:\n  - id: ${ASSET}\n    comment: Reviewed\n` })
    const applied = await cli(em, dir, ['apply', '.', '--auto-approve'], { SCANSYNC_API_URL: proxy.url })
    expect(applied.code, applied.stdout + applied.stderr).toBe(0)
    const put = em.requests().find((r) => r.method === 'PUT')
    expect(put?.body).toMatchObject({ comment: 'Reviewed', labels: [] })
    expect(Object.keys(put?.body as object)).not.toContain('owners')
  })
})
