import { describe, expect, it } from 'vitest'
import { call, emulator } from './helpers.js'

// The emulator keeps each resource's answer as text until the next write (State.answerText).
describe('emulator answers kept as text until a write', () => {
  it('serves a page as JSON.stringify writes it, the same text on every read', async () => {
    const em = await emulator()
    const first = await call(em, 'GET', '/targets/?page=1&length=100')
    const again = await call(em, 'GET', '/targets/?page=1&length=100')
    expect(first.text).toBe(JSON.stringify(first.json))
    expect(Object.keys(first.json)).toEqual(['count', 'page_total', 'page', 'length', 'results'])
    expect(again.text).toBe(first.text)
    const one = await call(em, 'GET', '/targets/TargetA11111/')
    expect(one.text).toBe(JSON.stringify(first.json.results.find((t: { id: string }) => t.id === 'TargetA11111')))
  })

  it('a write shows in the next read of every resource it changes, not only the one written', async () => {
    const em = await emulator()
    const before = await call(em, 'GET', '/discovery/assets/')
    expect(before.json.results[0].labels).toEqual([expect.objectContaining({ name: 'prod', color: '#ff0000' })])
    // The target's write recolours the label the asset also carries.
    const patched = await call(em, 'PATCH', '/targets/TargetA11111/', { labels: [{ name: 'prod', color: '#00ff00' }] })
    expect(patched.status).toBe(200)
    const after = await call(em, 'GET', '/discovery/assets/')
    expect(after.json.results[0].labels).toEqual([expect.objectContaining({ name: 'prod', color: '#00ff00' })])
  })

  it('a hand change, a creation and a new seed show in the next read', async () => {
    const em = await emulator()
    await call(em, 'GET', '/targets/')
    em.mutate('target', 'TargetB22222', { site: { desc: 'changed by hand' } })
    expect((await call(em, 'GET', '/targets/TargetB22222/')).json.site.desc).toBe('changed by hand')
    const created = await call(em, 'POST', '/targets/', { site: { name: 'New', url: 'https://new.example.com/' } })
    expect(created.status).toBe(201)
    expect((await call(em, 'GET', '/targets/')).json.count).toBe(3)
    em.seed({ targets: [{ id: 'OnlyOne11111', site: { url: 'https://only.example.com/' } }] })
    expect((await call(em, 'GET', '/targets/')).json.results.map((t: { id: string }) => t.id)).toEqual(['OnlyOne11111'])
  })
})
