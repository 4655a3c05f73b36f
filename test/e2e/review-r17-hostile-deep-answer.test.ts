// A service (or a proxy) answering a read with a value nested thousands of levels deep inside a
// field scansync compares (a blacklist item): a clear error naming the answer, not a stack overflow
// ("unexpected failure: Maximum call stack size exceeded", an internal error asking for a report).
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleConfig, EXAMPLE_SECRETS } from './helpers.js'
import { deepBlacklistProxy, DEEP_VALUE as DEEP, startProxy } from './proxy.js'

describe('a live answer nested deeper than any resource', () => {
  it('plan and apply: the answer is refused as nested too deep (exit 1), nothing is sent', { timeout: 60_000 }, async () => {
    const em = await emulator()
    const proxy = await deepBlacklistProxy(em.url, (path) => path.startsWith('/targets/2DZkoZH8WMEM/'))
    const dir = exampleConfig()
    for (const command of [['plan', '--id', '2DZkoZH8WMEM'], ['plan', '--id', '2DZkoZH8WMEM', '--out', 'plan.json'], ['apply', '--id', '2DZkoZH8WMEM', '--auto-approve']]) {
      const run = await cli(em, dir, command, { ...EXAMPLE_SECRETS, SCANSYNC_API_URL: proxy.url })
      expect(run.code, run.stdout).toBe(1)
      expect(run.stderr).toContain("target 2DZkoZH8WMEM: the service's answer holds a value nested too deep to compare (thousands of levels); it was not used")
      expect(run.stderr).not.toContain('unexpected failure')
    }
    expect(em.requests().filter((r) => r.method !== 'GET')).toEqual([])
  })
})

describe('a deep value on a list page, or in a field scansync does not read', () => {
  it('on a list page: the same clear error; in an unknown field: ignored, the plan as without it', { timeout: 60_000 }, async () => {
    const em = await emulator()
    const dir = exampleConfig()
    const inList = await deepBlacklistProxy(em.url, (path) => path === '/targets/')
    const listed = await cli(em, dir, ['plan'], { ...EXAMPLE_SECRETS, SCANSYNC_API_URL: inList.url })
    expect(listed.code, listed.stdout).toBe(1)
    expect(listed.stderr).toMatch(/target \w+: the service's answer holds a value nested too deep to compare/)
    expect(listed.stderr).not.toContain('unexpected failure')
    const unknown = await startProxy(em.url, async (request, forward) => {
      const answer = await forward()
      return request.method === 'GET' && request.path.startsWith('/targets/') ? { ...answer, body: answer.body.replaceAll('"blacklist":[', `"x_unknown":${DEEP},"blacklist":[`) } : answer
    })
    const plain = await cli(em, dir, ['plan', '--format', 'json'], EXAMPLE_SECRETS)
    for (const args of [['plan', '--format', 'json'], ['plan', '--format', 'json', '--out', 'saved.json']]) {
      const run = await cli(em, dir, args, { ...EXAMPLE_SECRETS, SCANSYNC_API_URL: unknown.url })
      expect(run.stderr).not.toContain('unexpected failure')
      expect(run.stdout).toBe(plain.stdout)
    }
    const applied = await cli(em, dir, ['apply', '--plan', 'saved.json', '--auto-approve'], { ...EXAMPLE_SECRETS, SCANSYNC_API_URL: unknown.url })
    expect(applied.stderr).not.toContain('unexpected failure')
    expect(applied.code, applied.stderr).toBe(0)
  })
})
