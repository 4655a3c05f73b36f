// The service a year later: a custom header in a target's answer gains a member the interface
// document does not list (`scope`). A change to a header the YAML declares sends the header list
// (a list in a merge patch is replaced whole), each declared item filled from live: filled only with
// the members scansync knows, it dropped `scope`, so the service reset it on every such apply. A
// member of a live item that the response schema does not know now goes back as answered.
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'
import { startProxy } from './proxy.js'

const TARGET = '2DZkoZH8WMEM'

describe('a declared header whose live item carries a member scansync does not know', () => {
  it('a change of its value sends that member back, as answered', async () => {
    const em = await emulator()
    const patches: Array<Record<string, unknown>> = []
    const proxy = await startProxy(em.url, async (request, forward) => {
      if (request.method === 'PATCH') patches.push(JSON.parse(request.body) as Record<string, unknown>)
      const answer = await forward()
      if (!request.path.startsWith('/targets/') || answer.status !== 200) return answer
      const parsed = JSON.parse(answer.body) as Record<string, unknown>
      for (const target of Array.isArray(parsed.results) ? (parsed.results as Array<Record<string, unknown>>) : [parsed]) {
        const site = target.site as { headers?: Array<Record<string, unknown>> } | null
        for (const header of site?.headers ?? []) Object.assign(header, { scope: 'crawler-only', token_ref: 'OBFUSCATED_99aa' })
      }
      return { ...answer, body: JSON.stringify(parsed) }
    })
    const dir = tempdir({ 'targets.yaml': `targets:\n  - id: ${TARGET}\n    site:\n      headers:\n        - name: X-Scanner\n          value: scansync-v2\n` })
    const applied = await cli(em, dir, ['apply', '.', '--auto-approve'], { SCANSYNC_API_URL: proxy.url })
    expect(applied.code, applied.stdout + applied.stderr).toBe(0)
    expect(patches).toHaveLength(1)
    const headers = (patches[0].site as { headers: Array<Record<string, unknown>> }).headers
    expect(headers).toEqual([expect.objectContaining({ name: 'X-Scanner', value: 'scansync-v2', scope: 'crawler-only' })])
    // A value the service hides cannot be sent back.
    expect(Object.keys(headers[0])).not.toContain('token_ref')
  })
})
