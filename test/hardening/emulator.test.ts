// Issue 8: the emulator (the test bed, and `scansync emulator` for demos) under hostile requests.
// A deeply nested body overflowed the stack while it was redacted for the request log: the
// exception went unhandled and the server stopped serving everyone.
import { describe, expect, it } from 'vitest'
import { emulator, TOKEN } from '../e2e/helpers.js'

async function send(url: string, method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  const answer = await fetch(url + path, { method, body, headers: { authorization: `JWT ${TOKEN}`, 'content-type': 'application/json' } })
  return { status: answer.status, text: await answer.text() }
}

describe('the emulator under hostile requests', () => {
  it('a body nested 5,000 deep is refused with a 400 (it crashed the server), and the emulator goes on serving', async () => {
    const em = await emulator()
    const deepList = '['.repeat(5000) + ']'.repeat(5000)
    const deepObject = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000)
    for (const body of [`{"site": {"name": ${deepList}}}`, `{"site": ${deepObject}}`, `{"labels": ${deepList}}`]) {
      expect(await send(em.url, 'PATCH', '/targets/2DZkoZH8WMEM/', body)).toEqual({ status: 400, text: '{"detail":"JSON parse error - nested more than 64 levels deep"}' })
    }
    const after = await send(em.url, 'GET', '/targets/2DZkoZH8WMEM/')
    expect(after.status).toBe(200)
    expect(JSON.parse(after.text).site.name).toBe('Shop')
  })

  it('prototype keys in bodies and ids are data, nothing more', async () => {
    const em = await emulator()
    const answers = [
      await send(em.url, 'PATCH', '/targets/2DZkoZH8WMEM/', '{"__proto__": {"polluted": 1}, "site": {"__proto__": {"polluted": 2}}}'),
      await send(em.url, 'PATCH', '/targets/2DZkoZH8WMEM/', '{"constructor": {"prototype": {"polluted": 3}}}'),
      await send(em.url, 'PATCH', '/scanning-agents/3kLx8Qy7Pb2m/', '{"teams": [{"id": "__proto__"}, {"id": "constructor"}]}'),
      await send(em.url, 'GET', '/targets/constructor/'),
      await send(em.url, 'GET', '/targets/__proto__/'),
    ]
    expect(answers.map((a) => a.status)).toEqual([200, 200, 400, 404, 404])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted')
  })
})
