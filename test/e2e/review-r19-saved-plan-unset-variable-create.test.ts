// Review round 19 (variables and secrets, end to end): `scansync apply --plan FILE` in a job where a
// variable of a target to create is not set said `target : site.url: environment variable
// NEW_APP_URL is not set` twice (once for the field, once for the URL that identifies the target),
// naming no target at all.
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'

const CONFIG = `targets:
  - site:
      name: New application
      url: \${NEW_APP_URL}
`

describe('apply --plan, a variable of a target to create not set', () => {
  it('names the target by its URL reference, once per place, and sends nothing', async () => {
    const em = await emulator()
    const dir = tempdir({ 'config/targets.yaml': CONFIG })
    const saved = await cli(em, dir, ['plan', 'config', '--out', 'new.plan.json'], { NEW_APP_URL: 'https://new-app-4c9e.example.com/' })
    expect(saved.code, saved.stderr).toBe(0)
    const before = em.requests().length
    const run = await cli(em, dir, ['apply', '--plan', 'new.plan.json', '--auto-approve'])
    expect(run.code).toBe(1)
    const lines = run.stderr.split('\n').filter((line) => line.includes('NEW_APP_URL is not set'))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('target ${NEW_APP_URL}: site.url: environment variable NEW_APP_URL is not set')
    expect(run.stderr).not.toContain('target :')
    expect(em.requests().slice(before).filter((r) => r.method !== 'GET')).toEqual([])
  })
})
