// Review round 24 (hostile values in CI outputs): round 22 escaped the format characters (\p{Cf}),
// so that a change of a character with no glyph shows. Unicode's other "default ignorable" code
// points are drawn as nothing too: the combining grapheme joiner (U+034F), the variation
// selectors (U+FE00–FE0F, U+E0100–E01EF), the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0),
// the Mongolian free variation selectors. A target renamed by hand to "Shop\u034f" drifted as
// `site.name: "Shop͏" -> "Shop"` in every format, a change no one could see (and a plan would
// have sent such a value unseen). They are escaped as the format characters are.
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleSeed, tempdir } from '../e2e/helpers.js'
import { formatValue } from '../../src/render/index.js'

const TARGET = `targets:
  - id: 9XcVbN5mQwEr
    site:
      name: Promo
      desc: Run by the agency
    labels: [prod]
`

const HIDDEN = /[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180d\u180f\u3164\ufe00-\ufe0f\uffa0]|\udb40[\udd00-\uddef]/

describe('default-ignorable characters in plan values', () => {
  it('are escaped, so that a change of one shows', () => {
    expect(formatValue('Promo\u034f')).toBe('"Promo\\u034f"')
    expect(formatValue('a\ufe0fb\u3164c\uffa0d\u115f\u1160')).toBe('"a\\ufe0fb\\u3164c\\uffa0d\\u115f\\u1160"')
    // A variation selector outside the Basic Multilingual Plane, written as JSON writes it.
    expect(formatValue('x\u{e0100}')).toBe('"x\\udb40\\udd00"')
    expect(formatValue('Ünïcode ＦＵＬＬ 😀 日本語 한국어')).toBe('"Ünïcode ＦＵＬＬ 😀 日本語 한국어"')
  })

  it('plan and drift show which value differs, in every format', { timeout: 60_000 }, async () => {
    const seed = exampleSeed()
    const promo = seed.targets!.find((t) => t.id === '9XcVbN5mQwEr')!
    promo.site = { ...(promo.site as object), name: 'Promo\u034f', desc: 'Run by the agency\u3164' }
    promo.labels = [{ name: 'prod\ufe0f' }]
    const em = await emulator({ seed })
    const dir = tempdir({ 'targets.yaml': TARGET })
    for (const command of ['plan', 'drift']) {
      const run = await cli(em, dir, [command])
      expect(run.stderr).toBe('')
      expect(run.stdout).toContain('site.name: "Promo\\u034f" -> "Promo"')
      expect(run.stdout).toContain('site.desc: "Run by the agency\\u3164" -> "Run by the agency"')
      expect(run.stdout).toContain('- "prod\\ufe0f"')
      expect(run.stdout).not.toMatch(HIDDEN)
      for (const format of ['github', 'markdown']) {
        const other = await cli(em, dir, [command, '--format', format])
        expect(other.stdout).toContain('\\u034f')
        expect(other.stdout).not.toMatch(HIDDEN)
      }
    }
  })
})
