// The pull-request comment clips long values to a thousand characters, so that one long value
// cannot crowd out the rest. Names were not clipped: a live target whose name someone made very
// long (72,000 characters) in the web interface took more than the section of undeclared
// resources may use, so that row and every one after it were dropped ("… and 2 more"); a long
// name in the table of changes dropped the rows after it and every resource's details.
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleSeed, tempdir } from './helpers.js'

const LONG = 'Promo '.repeat(12_000)

describe('a very long name in the pull-request comment', () => {
  it('is clipped: the other resources are still listed and detailed', { timeout: 60_000 }, async () => {
    const seed = exampleSeed()
    seed.targets!.find((t) => t.id === '9XcVbN5mQwEr')!.site!.name = LONG
    seed.agents!.find((a) => a.id === '2PqRsT6uVwXy')!.name = 'cloud-fallback-agent'
    const em = await emulator({ seed })
    // Declared by id, without a name: the comment names each by its live name.
    const dir = tempdir({
      'targets.yaml': 'targets:\n  - id: 9XcVbN5mQwEr\n    scan_profile: normal\n  - id: 2DZkoZH8WMEM\n    scan_profile: lightning\n',
    })
    // Undeclared: the target with the long name, listed before the agent.
    const undeclared = await cli(em, tempdir({ 'agents.yaml': 'agents:\n  - id: 3kLx8Qy7Pb2m\n  - id: 6NbVcX4zLkJh\n' }), ['drift', '--unmanaged', '--format', 'markdown'])
    expect(undeclared.code).toBe(2)
    expect(undeclared.stdout).not.toContain('more: run `scansync drift --unmanaged` locally')
    expect(undeclared.stdout).toContain('<code>2PqRsT6uVwXy</code> | cloud-fallback-agent |')
    expect(undeclared.stdout).toMatch(/<code>9XcVbN5mQwEr<\/code> \| (Promo ){10}.*… \([\d,]+ more characters\) \|/)

    const plan = await cli(em, dir, ['plan', '--format', 'markdown'])
    expect(plan.code).toBe(0)
    expect(plan.stdout).toContain('<code>2DZkoZH8WMEM</code>')
    expect(plan.stdout).toContain('<details><summary>~ target 2DZkoZH8WMEM')
    expect(plan.stdout).toContain('<details><summary>~ target 9XcVbN5mQwEr')
    expect(plan.stdout).not.toContain('not listed above')
    expect(plan.stdout).not.toContain('not shown')
  })
})
