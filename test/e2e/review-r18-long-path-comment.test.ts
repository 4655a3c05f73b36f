// A field's path holds the keys of list items (`site.headers[X-Scanner]`), and a live item's key
// is whatever someone typed in the web interface. The pull-request comment clipped values but not
// paths: one header named with 70,000 characters made the drift comment list no resource at all
// ("4 more changed resources not listed above, and no resource details shown").
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleConfig, exampleSeed } from './helpers.js'

describe('a very long list key in the pull-request comment', () => {
  it('is clipped: every changed resource is listed and detailed', { timeout: 60_000 }, async () => {
    const seed = exampleSeed()
    const site = seed.targets!.find((t) => t.id === '2DZkoZH8WMEM')!.site!
    const headers = site.headers as Array<Record<string, unknown>>
    headers.push({ ...headers[0], name: 'H'.repeat(70_000) })
    const em = await emulator({ seed })
    const run = await cli(em, exampleConfig(), ['drift', '--format', 'markdown'])
    expect(run.code).toBe(2)
    expect(run.stdout).not.toContain('not listed above')
    expect(run.stdout).not.toContain('not shown')
    expect(run.stdout).toContain('<details><summary>~ target 2DZkoZH8WMEM')
    expect(run.stdout).toMatch(/<code>site\.headers\\\[H{100}H*… \([\d,]+ more characters\)<\/code>/)
  })
})
