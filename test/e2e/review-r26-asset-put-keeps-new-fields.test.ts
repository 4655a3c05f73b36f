// The service a year later: the asset answer gains a field the interface document does not list
// (`priority`, writable by the PUT of the new service). The asset PUT is whole and the document does
// not say whether PUT resets what its body leaves out (README, "Assumptions": reset, possibly), so a
// PUT built only from the members scansync knows reset it on every apply of a comment. What the
// answer carries beyond the members scansync knows goes back as the service answered it, except a
// value the service hides (OBFUSCATED_…), which cannot be read back.
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'
import { startProxy } from './proxy.js'

const ASSET = '9fGh2Kd8LmQz'
const ADDED = { priority: 'high', review: { due: '2026-01-31', by: 'alice' } }

describe('an asset whose answer carries fields scansync does not know', () => {
  it('an apply of its comment sends them back as answered: the whole PUT does not reset them', async () => {
    const em = await emulator()
    const puts: Array<Record<string, unknown>> = []
    const proxy = await startProxy(em.url, async (request, forward) => {
      if (request.method === 'PUT') puts.push(JSON.parse(request.body) as Record<string, unknown>)
      const answer = await forward()
      if (!request.path.startsWith('/discovery/assets/') || answer.status !== 200) return answer
      const parsed = JSON.parse(answer.body) as Record<string, unknown>
      for (const asset of Array.isArray(parsed.results) ? (parsed.results as Array<Record<string, unknown>>) : [parsed]) {
        Object.assign(asset, ADDED, { webhook_secret: 'OBFUSCATED_0123abcd', webhook_secret_is_sensitive: true })
      }
      return { ...answer, body: JSON.stringify(parsed) }
    })
    const dir = tempdir({ 'assets.yaml': `assets:\n  - id: ${ASSET}\n    comment: Reviewed\n` })
    const applied = await cli(em, dir, ['apply', '.', '--auto-approve'], { SCANSYNC_API_URL: proxy.url })
    expect(applied.code, applied.stdout + applied.stderr).toBe(0)
    expect(puts).toHaveLength(1)
    expect(puts[0]).toMatchObject({ comment: 'Reviewed', ...ADDED, webhook_secret_is_sensitive: true })
    // Known members of the answer that the PUT does not take stay out of it, and so does a hidden value.
    for (const readOnly of ['id', 'url', 'type', 'risk', 'target', 'changed', 'webhook_secret']) expect(Object.keys(puts[0])).not.toContain(readOnly)

    // And the next plan is empty: nothing the service added shows as a change.
    const planned = await cli(em, dir, ['plan', '.', '--detailed-exitcode'], { SCANSYNC_API_URL: proxy.url })
    expect(planned.code, planned.stdout + planned.stderr).toBe(0)
  })
})
