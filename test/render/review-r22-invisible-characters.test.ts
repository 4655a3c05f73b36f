// A live value that differs from the YAML only by a character with no glyph (a zero-width space
// pasted with a name, a zero-width joiner, a soft hyphen, a byte order mark) printed as it was:
// the plan read `site.name: "Promo" -> "Promo"` and `labels: + "prod" - "prod"`, a change no one
// could see, and drift reported a difference it did not show. Such characters are escaped as
// the control characters and bidirectional marks already were.
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

describe('characters with no glyph in plan values', () => {
  it('are escaped, so that a change of one shows', () => {
    expect(formatValue('Promo\u200b')).toBe('"Promo\\u200b"')
    expect(formatValue('a\u00adb\u200c\u200d\u2060\ufeff')).toBe('"a\\u00adb\\u200c\\u200d\\u2060\\ufeff"')
    // One outside the Basic Multilingual Plane (a tag character), written as JSON writes it.
    expect(formatValue('x\u{e0041}')).toBe('"x\\udb40\\udc41"')
    expect(formatValue('Ünïcode ＦＵＬＬ 😀 日本語')).toBe('"Ünïcode ＦＵＬＬ 😀 日本語"')
  })

  it('plan and drift show which value differs', { timeout: 60_000 }, async () => {
    const seed = exampleSeed()
    const promo = seed.targets!.find((t) => t.id === '9XcVbN5mQwEr')!
    promo.site = { ...(promo.site as object), name: 'Promo\u200b', desc: '\ufeffRun by the agency' }
    promo.labels = [{ name: 'prod\u200d' }]
    const em = await emulator({ seed })
    const dir = tempdir({ 'targets.yaml': TARGET })
    for (const command of ['plan', 'drift']) {
      const run = await cli(em, dir, [command])
      expect(run.stderr).toBe('')
      expect(run.stdout).toContain('site.name: "Promo\\u200b" -> "Promo"')
      expect(run.stdout).toContain('site.desc: "\\ufeffRun by the agency" -> "Run by the agency"')
      expect(run.stdout).toContain('+ "prod"')
      expect(run.stdout).toContain('- "prod\\u200d"')
      expect(run.stdout).not.toMatch(/[\u200b\u200d\ufeff]/)
    }
    const markdown = await cli(em, dir, ['plan', '--format', 'markdown'])
    expect(markdown.stdout).not.toMatch(/[\u200b\u200d\ufeff]/)
  })
})
