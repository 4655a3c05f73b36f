import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { needsPrecise, PRECISE_ONLY, PRECISE_PATTERN, PRECISE_SCANS, type PreciseRule } from '../../src/config/precise-only.js'

// The scans are a faster way of asking what the patterns ask: for every text, each scan must
// answer exactly as its pattern does (a scan that missed a match would let js-yaml read a file it
// may read differently from `yaml`).

/** Every character the patterns care about, the words they look for, and some they do not. */
const PIECES = [
  ' ', '  ', '\t', '\n', '\r', '\r\n', '\v', '\f', '\u00a0', '\u2028', '\u2029', '\u3000', '\ufeff', '\u0085',
  '&', '*', '!', '<', '<<', '%', '-', '---', '.', '...', '?', '[', ']', '{', '}', ',', ':', '~', '#', '|', '>', '+',
  '0', '7', 'null', 'Null', 'NULL', 'nul', 'x', 'a b', 'é', '\u{1F600}',
]

/** Texts of a few pieces each (drawn from a handful, so that the same few meet often). */
const text = fc
  .shuffledSubarray(PIECES, { minLength: 1, maxLength: 6 })
  .chain((few) => fc.array(fc.constantFrom(...few), { maxLength: 12 }))
  .map((pieces) => pieces.join(''))

const rules = Object.keys(PRECISE_ONLY) as PreciseRule[]

/** A fixed seed; SCANSYNC_FUZZ_SCALE multiplies the runs and SCANSYNC_FUZZ_SEED replays a seed, as for the loader fuzzing. */
const FUZZ = {
  numRuns: 3000 * Number(process.env.SCANSYNC_FUZZ_SCALE ?? 1),
  seed: process.env.SCANSYNC_FUZZ_SEED === undefined ? 20_261_126 : Number(process.env.SCANSYNC_FUZZ_SEED),
}

/** Per rule, the pieces it looks for, with a few of every text: so that they meet often. */
const COMMON = [' ', '\n', 'x', '\u00a0', '\u2028', '\v']
const RULE_PIECES: Record<PreciseRule, string[]> = {
  anchorAliasOrTag: ['&', '*', '!', '[', ']', '{', '}', ',', ':', '?', '-', '\t'],
  mergeKey: ['<', '<<', ':', '{', ',', '[', '?', '\t'],
  directive: ['%', '\r', '\u2029'],
  documentMarker: ['-', '---', '.', '...', '#', '\t', '\r'],
  explicitKey: ['?', '{', ',', '[', '\t'],
  collectionKey: [']', '}', ':', '{', ',', '[', '\t', '\r'],
  nullKey: [':', '~', 'null', 'Null', 'NULL', 'nul', '{', ',', '[', '?', ']', '}', '\t'],
  tabIndent: ['\t', '\r'],
  loneCarriageReturn: ['\r', '\r\n'],
  emptyListEntry: ['-', '#', '\t', '\r', '\r\n'],
  blockScalarIndicator: ['|', '>', '-', '+', '0', '7'],
  blockScalarLeadingBlank: ['|', '>', '-', '+', '0', '#', '\t', '\r\n', '\r'],
  longEscape: ['\\', 'U', '\\U', '0', '1', 'F', 'f', 'g', '00', '0010FFFF', '00110000', '0001F600'],
}
const textFor = (rule: PreciseRule) => fc.array(fc.constantFrom(...RULE_PIECES[rule], ...COMMON), { maxLength: 10 }).map((pieces) => pieces.join(''))

describe('each scan answers as its pattern', () => {
  it.each(rules)('%s, on texts made of what it looks for', (rule) => {
    const pattern = new RegExp(PRECISE_ONLY[rule].source, 'm')
    fc.assert(
      fc.property(fc.oneof(textFor(rule), text), (sample) => {
        expect(PRECISE_SCANS[rule](sample), JSON.stringify(sample)).toBe(pattern.test(sample))
      }),
      FUZZ,
    )
  })

  it.each(rules)('%s, on hand-picked edges', (rule) => {
    const edges = [
      '', '&', ' &', 'a&', '\u00a0*', '-!', '<<:', ' << \t:', 'a<<:', '<<<:', '%', 'a\n%', 'a%', '\u2028%', '---', '---x', '--- x', '--- #', '---\t\tx',
      '----', '...x', 'a\n...  y', '?', ' ?', 'a?', '? ', '?x', '{?\n', ']:', '] \t:', '}\n:', '{ [', ',\n[', ':', 'a:', ' :', 'a :x', '~:', 'x~:', 'null:',
      'xnull:', ' Null :', '{NULL}', '{ ~ ,', ',null}', '{nul}', '\t', ' \t', 'a\t', '\n \ta', '\r', '\r\n', '\r\r\n', '-', ' -', 'a-', '- #c', '-#c', '-  \r\n',
      '- x', '\u2028-', '|2', '>+', '|-1', '|-x', '>x', '|\n\n', '| # c\n  \n', '|+2 \r\n\t\r\n', '>\n x\n\n', '|-\r\n',
      '\\U0001F600', '\\U0010FFFF', '\\U00110000', '\\UFFFFFFFF', '\\U0001F60', '\\U', 'C:\\Users', '\\u0041',
    ]
    const pattern = new RegExp(PRECISE_ONLY[rule].source, 'm')
    for (const edge of edges) expect(PRECISE_SCANS[rule](edge), JSON.stringify(edge)).toBe(pattern.test(edge))
  })
})

describe('needsPrecise', () => {
  it('names the rule of the first match of all the patterns, or none', () => {
    fc.assert(
      fc.property(text, (sample) => {
        const matched = PRECISE_PATTERN.exec(sample)
        const rule = needsPrecise(sample)
        if (!matched) expect(rule).toBeUndefined()
        else expect(rule !== undefined && new RegExp(PRECISE_ONLY[rule as PreciseRule].source, 'm').test(matched[0])).toBe(true)
      }),
      FUZZ,
    )
  })
})

describe('the scans take time linear in the size of a text', () => {
  // Each shape repeats what one scan looks at, so that looking from each occurrence to the end
  // of a run (or of a line) would cost time quadratic in its length: minutes at this size, where
  // a linear scan takes milliseconds. No wall-clock assertion: the timeout is the check.
  const n = 400_000
  const shapes: Array<[string, string]> = [
    ['a run of tabs', `a${'\t'.repeat(n)}`],
    ['tabs and spaces', `a${' \t'.repeat(n / 2)}`],
    ['a comment full of |', `a: | #${'|'.repeat(n)}\n`],
    ['a comment full of > and digits', `a: >1 #${'>1 #'.repeat(n / 4)}\n`],
    ['colons after runs of blanks', `a${`${' '.repeat(1000)}x:`.repeat(n / 1000)}`],
    ['dashes', `${'- '.repeat(n / 2)}x\n`],
    ['spaces before [', `{${' '.repeat(n)}x[`],
    ['null words between spaces', `{${' null '.repeat(n / 6)}x`],
    ['merge keys', `${'<<'.repeat(n / 2)}${' '.repeat(n)}x`],
    ['document markers', `${'-'.repeat(n)}\n${'.'.repeat(n)}`],
  ]
  it.each(shapes)('%s', { timeout: 20_000 }, (_, shape) => {
    for (const rule of rules) PRECISE_SCANS[rule](shape)
    needsPrecise(shape)
  })
})
