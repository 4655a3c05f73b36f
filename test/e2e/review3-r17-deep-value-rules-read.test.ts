// A service (or a proxy) answering a value nested thousands of levels deep in a field the YAML does
// not declare: the plan does not compare it, but a rule that reads it builds it into the resource's
// after-apply shape, which overflowed the stack ("unexpected failure: Maximum call stack size
// exceeded … please report it", plan, drift and audit alike). Refused in the comparison's words.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'
import { deepBlacklistProxy } from './proxy.js'

beforeAll(ensureBuilt, 120_000)


const POLICIES = `policies:
  - name: short-blacklist
    description: A blacklist stays short
    kind: target
    require:
      properties:
        site: {properties: {blacklist: {maxItems: 100}}}
`

// The target's name only: its blacklist is not declared, so not compared.
const CONFIG = `targets:
  - id: 2DZkoZH8WMEM
    site: {name: Shop renamed}
`

describe('a deep value in a field a rule reads but no file declares', () => {
  it('plan, drift and audit refuse the answer as nested too deep (exit 1), not as an unexpected failure', { timeout: 60_000 }, async () => {
    const em = await emulator()
    const proxy = await deepBlacklistProxy(em.url, (path) => path.startsWith('/targets/'))
    const dir = tempdir({ 'c.yaml': CONFIG, 'p.yaml': POLICIES })
    for (const command of ['plan', 'drift', 'audit']) {
      const run = await cli(em, dir, [command, '.'], { SCANSYNC_API_URL: proxy.url })
      expect(run.stderr, command).not.toContain('unexpected failure')
      expect(run.stderr, command).toMatch(/target \w+: the service's answer holds a value nested too deep to compare \(thousands of levels\); it was not used/)
      expect(run.code, command).toBe(1)
    }
    // Without the deep value the same rules pass.
    expect((await cli(em, dir, ['audit', '.'])).code).toBe(0)
    expect(em.requests().filter((r) => r.method !== 'GET')).toEqual([])
  })
})
