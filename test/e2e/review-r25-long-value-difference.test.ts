// The pull-request comment clips a value to a thousand characters. Both sides of a change were cut
// at the same place, so a long value changed past that place (one character of a 4 KB login
// payload or description) printed as two identical cells: the reviewer could not see what changed.
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleSeed, tempdir } from './helpers.js'

const payload = (secret: string) => JSON.stringify({ client_id: 'scanner', scopes: 'read '.repeat(800), audience: `https://auth.example.com/${secret}` })

describe('a long value changed past the comment clip', () => {
  it('shows where the two sides differ in the markdown comment', { timeout: 60_000 }, async () => {
    const seed = exampleSeed()
    const live = payload('v1')
    const declared = payload('v2')
    seed.targets!.find((t) => t.id === '7QwErTy2UiOp')!.site!.desc = live
    const em = await emulator({ seed })
    const dir = tempdir({
      'targets.yaml': `targets:\n  - id: 7QwErTy2UiOp\n    site:\n      name: Shop (staging)\n      url: https://staging.shop.example.com/\n      desc: '${declared}'\n`,
    })
    const plan = await cli(em, dir, ['plan', '--format', 'markdown'])
    expect(plan.code).toBe(0)
    const row = plan.stdout.split('\n').find((line) => line.startsWith('| <code>site.desc</code>'))!
    const [, before, after] = /^\| <code>site\.desc<\/code> \| (.*) \| (.*) \|$/.exec(row)!
    expect(before).not.toBe(after)
    expect(before).toContain('auth.example.com/v1')
    expect(after).toContain('auth.example.com/v2')
    // It says how much was left out before and after what it shows.
    expect(after).toMatch(/^<code>\([\d,]+ characters before\) …/)
    expect(row.length).toBeLessThan(3_000)
  })
})
