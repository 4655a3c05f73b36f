// A live value that differs from the YAML only by a character drawn as nothing, or as a plain
// space, printed as it was: the plan read `site.name: "Promo" -> "Promo"` and `labels: + "prod"
// - "prod"`, a change no one could see, and drift reported a difference it did not show. Such
// characters are escaped, as the control characters and bidirectional marks are:
// - the format characters (\p{Cf}: zero-width space and joiners, soft hyphen, byte order mark), review round 22;
// - Unicode's other default-ignorable code points (the combining grapheme joiner, variation
//   selectors, Hangul fillers, Mongolian free variation selectors), review round 24 (hostile values in CI outputs);
// - the spaces other than U+0020 (no-break, thin, ideographic: a name copied from a web page), review round 24 (a team's first week).
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleSeed, tempdir } from '../e2e/helpers.js'
import { formatValue } from '../../src/render/index.js'
import type { EmulatorSeed as Seed } from '../../src/emulator/index.js'

const PROMO = `targets:
  - id: 9XcVbN5mQwEr
    site:
      name: Promo
      desc: Run by the agency
    labels: [prod]
`
type Target = NonNullable<Seed['targets']>[number]
const promoOf = (seed: Seed): Target => seed.targets!.find((t) => t.id === '9XcVbN5mQwEr')!
/** The live promo target renamed, described and labelled with these texts (each odd in one character). */
const promoHolding = (name: string, desc: string, label: string) => (seed: Seed): void => {
  const promo = promoOf(seed)
  promo.site = { ...(promo.site as object), name, desc }
  promo.labels = [{ name: label }]
}

const CASES: Array<{ what: string; formatted: Array<[string, string]>; live: (seed: Seed) => void; config: string; shown: string[]; hidden: RegExp }> = [
  {
    what: 'characters with no glyph (format characters)',
    formatted: [
      ['Promo\u200b', '"Promo\\u200b"'],
      ['a\u00adb\u200c\u200d\u2060\ufeff', '"a\\u00adb\\u200c\\u200d\\u2060\\ufeff"'],
      // One outside the Basic Multilingual Plane (a tag character), written as JSON writes it.
      ['x\u{e0041}', '"x\\udb40\\udc41"'],
    ],
    live: promoHolding('Promo\u200b', '\ufeffRun by the agency', 'prod\u200d'),
    config: PROMO,
    shown: ['site.name: "Promo\\u200b" -> "Promo"', 'site.desc: "\\ufeffRun by the agency" -> "Run by the agency"', '+ "prod"', '- "prod\\u200d"'],
    hidden: /[\u200b\u200d\ufeff]/,
  },
  {
    what: 'the other default-ignorable code points',
    formatted: [
      ['Promo\u034f', '"Promo\\u034f"'],
      ['a\ufe0fb\u3164c\uffa0d\u115f\u1160', '"a\\ufe0fb\\u3164c\\uffa0d\\u115f\\u1160"'],
      // A variation selector outside the Basic Multilingual Plane.
      ['x\u{e0100}', '"x\\udb40\\udd00"'],
    ],
    live: promoHolding('Promo\u034f', 'Run by the agency\u3164', 'prod\ufe0f'),
    config: PROMO,
    shown: ['site.name: "Promo\\u034f" -> "Promo"', 'site.desc: "Run by the agency\\u3164" -> "Run by the agency"', '- "prod\\ufe0f"'],
    hidden: /[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180d\u180f\u3164\ufe00-\ufe0f\uffa0]|\udb40[\udd00-\uddef]/,
  },
  {
    what: 'spaces other than U+0020',
    formatted: [
      ['dc\u00a0lisbon', '"dc\\u00a0lisbon"'],
      ['a\u2009b\u202fc\u3000d', '"a\\u2009b\\u202fc\\u3000d"'],
      ['dc lisbon', '"dc lisbon"'],
    ],
    live: (seed) => {
      promoOf(seed).labels = [{ name: 'nbsp\u00a0x' }]
      seed.agents!.find((a) => a.id === '6NbVcX4zLkJh')!.name = 'dc\u00a0lisbon'
    },
    config: `targets:
  - id: 9XcVbN5mQwEr
    labels: [nbsp x]
agents:
  - id: 6NbVcX4zLkJh
    name: dc lisbon
`,
    shown: ['name: "dc\\u00a0lisbon" -> "dc lisbon"', '+ "nbsp x"', '- "nbsp\\u00a0x"'],
    hidden: /[\u00a0\u2009\u202f\u3000]/,
  },
]

describe.each(CASES)('$what in plan values', ({ formatted, live, config, shown, hidden }) => {
  it('are escaped, so that a change of one shows; other characters print as they are', () => {
    for (const [value, printed] of formatted) expect(formatValue(value)).toBe(printed)
    expect(formatValue('Ünïcode ＦＵＬＬ 😀 日本語 한국어')).toBe('"Ünïcode ＦＵＬＬ 😀 日本語 한국어"')
  })

  it('plan and drift show which value differs, in every format', { timeout: 60_000 }, async () => {
    const seed = exampleSeed()
    live(seed)
    const em = await emulator({ seed })
    try {
      const dir = tempdir({ 'config.yaml': config })
      for (const command of ['plan', 'drift']) {
        const run = await cli(em, dir, [command])
        expect(run.stderr).toBe('')
        for (const line of shown) expect(run.stdout).toContain(line)
        expect(run.stdout).not.toMatch(hidden)
        for (const format of ['github', 'markdown']) expect((await cli(em, dir, [command, '--format', format])).stdout).not.toMatch(hidden)
      }
    } finally {
      await em.close()
    }
  })
})
