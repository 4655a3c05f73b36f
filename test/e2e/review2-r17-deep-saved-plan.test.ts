// A saved plan applied while the service answers a value nested thousands of levels deep in a
// field scansync compares: apply --plan reads the planned resources again and compares them before
// sending. That comparison must refuse the answer in the plan's clear words (exit 1, nothing sent),
// not fail with "unexpected failure: Maximum call stack size exceeded … please report it".
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleConfig, EXAMPLE_SECRETS } from './helpers.js'
import { startProxy } from './proxy.js'

const DEEP = '['.repeat(20_000) + ']'.repeat(20_000)

describe('apply --plan against an answer nested too deep', () => {
  it('is refused as nested too deep, naming the target; nothing is sent', { timeout: 60_000 }, async () => {
    const em = await emulator()
    let deep = false
    const proxy = await startProxy(em.url, async (request, forward) => {
      const answer = await forward()
      if (!deep || request.method !== 'GET' || !request.path.startsWith('/targets/')) return answer
      return { ...answer, body: answer.body.replace(/"blacklist":\[(?!\])/g, `"blacklist":[${DEEP},`) }
    })
    const dir = exampleConfig()
    const env = { ...EXAMPLE_SECRETS, SCANSYNC_API_URL: proxy.url }
    const saved = await cli(em, dir, ['plan', '--out', 'saved.json'], env)
    expect(saved.code, saved.stderr).toBe(0)
    deep = true
    const applied = await cli(em, dir, ['apply', '--plan', 'saved.json', '--auto-approve'], env)
    expect(applied.stderr).not.toContain('unexpected failure')
    expect(applied.stderr).toContain("target 2DZkoZH8WMEM: the service's answer holds a value nested too deep to compare (thousands of levels); it was not used")
    expect(applied.code, applied.stdout).toBe(1)
    expect(em.requests().filter((r) => r.method !== 'GET')).toEqual([])
  })
})
