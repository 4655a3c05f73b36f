// Review round 24 (a team's first week): a live name holding a space other than U+0020 (a
// no-break space copied from a web page, a thin or ideographic space) printed as a space: the plan
// read `name: "dc lisbon" -> "dc lisbon"` and `labels: + "nbsp x" - "nbsp x"`, a change no one
// could see. Such spaces are escaped as the characters with no glyph already were.
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleSeed, tempdir } from '../e2e/helpers.js'
import { formatValue } from '../../src/render/index.js'

const CONFIG = `targets:
  - id: 9XcVbN5mQwEr
    labels: [nbsp x]
agents:
  - id: 6NbVcX4zLkJh
    name: dc lisbon
`
const ODD_SPACES = /[\u00a0\u2009\u202f\u3000]/

describe('spaces other than U+0020 in plan values', () => {
  it('are escaped; an ordinary space is not', () => {
    expect(formatValue('dc\u00a0lisbon')).toBe('"dc\\u00a0lisbon"')
    expect(formatValue('a\u2009b\u202fc\u3000d')).toBe('"a\\u2009b\\u202fc\\u3000d"')
    expect(formatValue('dc lisbon')).toBe('"dc lisbon"')
  })

  it('plan and drift show which value differs', { timeout: 60_000 }, async () => {
    const seed = exampleSeed()
    seed.targets!.find((t) => t.id === '9XcVbN5mQwEr')!.labels = [{ name: 'nbsp\u00a0x' }]
    seed.agents!.find((a) => a.id === '6NbVcX4zLkJh')!.name = 'dc\u00a0lisbon'
    const em = await emulator({ seed })
    const dir = tempdir({ 'config.yaml': CONFIG })
    for (const command of ['plan', 'drift']) {
      const run = await cli(em, dir, [command])
      expect(run.stderr).toBe('')
      expect(run.stdout).toContain('name: "dc\\u00a0lisbon" -> "dc lisbon"')
      expect(run.stdout).toContain('+ "nbsp x"')
      expect(run.stdout).toContain('- "nbsp\\u00a0x"')
      expect(run.stdout).not.toMatch(ODD_SPACES)
    }
    const markdown = await cli(em, dir, ['plan', '--format', 'markdown'])
    expect(markdown.stdout).not.toMatch(ODD_SPACES)
  })
})
