// A service (or a proxy) answering the POST that creates a target with an existing target: apply
// must not PATCH that other target with the declared fields (the plan showed a creation only).
import { describe, expect, it } from 'vitest'
import type { JsonObject } from '../../src/core/types.js'
import { cli, emulator, tempdir, TOKEN } from './helpers.js'
import { startProxy } from './proxy.js'

const OTHER = '2DZkoZH8WMEM'
const CONFIG = 'targets:\n  - site: {name: New one, url: "https://new.example.com/", desc: hello}\n'

describe('the answer to a creating POST names another target', () => {
  it.each([
    ['after creating it', true],
    ['without creating anything', false],
  ])('%s: that target is not written; the new one is looked up by its URL', async (_, creates) => {
    const em = await emulator()
    const before = JSON.stringify(em.get('target', OTHER))
    const proxy = await startProxy(em.url, async (request, forward) => {
      if (request.method !== 'POST') return forward()
      if (creates) await forward()
      const other = await fetch(`${em.url}/targets/${OTHER}/`, { headers: { authorization: `JWT ${TOKEN}` } })
      return { status: 201, body: await other.text() }
    })
    const dir = tempdir({ 'config.yaml': CONFIG })
    const applied = await cli(em, dir, ['apply', '.', '--auto-approve', '--format', 'json'], { SCANSYNC_API_URL: proxy.url })

    expect(em.requests().filter((r) => r.method === 'PATCH' || r.method === 'PUT')).toEqual([])
    expect(JSON.stringify(em.get('target', OTHER))).toBe(before)
    const change = JSON.parse(applied.stdout).changes[0] as JsonObject
    expect(change.id).not.toBe(OTHER)
    if (creates) {
      expect(applied.code, applied.stderr).toBe(0)
      expect(change).toMatchObject({ result: 'applied' })
      expect((em.get('target', change.id as string) as { site: JsonObject }).site.url).toBe('https://new.example.com/')
      expect(String((change.warnings as string[])[0])).toContain(`target ${OTHER}, whose URL is not https://new.example.com/`)
    } else {
      expect(applied.code).toBe(1)
      expect(change).toMatchObject({ result: 'failed' })
      expect(String(change.error)).toContain('so it was not created')
    }
  })
})
