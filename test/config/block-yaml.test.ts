import fc from 'fast-check'
import { stringify } from 'yaml'
import { describe, expect, it } from 'vitest'
// @ts-expect-error the benchmark's fixtures are plain JavaScript without types
import { buildAccount } from '../../bench/fixtures.js'
import { parseBlockYaml } from '../../src/config/block-yaml.js'
import { parseFast, parseWithJsYaml } from '../../src/config/fast-yaml.js'
import { parseYamlFile } from '../../src/config/read-yaml.js'
import { damaged, positionsOf } from './yaml-compare.js'

// block-yaml.ts reads plain block YAML itself. Whatever it answers must be what `yaml` (the
// precise path, the reference) and js-yaml (the fast path it stands in front of) give: the same
// data, down to -0, NaN and prototypes, the same position for every value, and js-yaml's item ranges.

/** Whether the block reader answered; where it did, `yaml` and (where it answers) js-yaml agree with it. */
function expectAgreement(text: string): 'answered' | 'declined' {
  const block = parseBlockYaml(text)
  if (block === undefined) return 'declined'
  const precise = parseYamlFile('a.yaml', Buffer.from(text), { fastPath: false })
  expect(precise.diagnostics).toEqual([])
  expect(block.data).toStrictEqual(precise.parsed!.data)
  // Every value's position, found through the block reader's item ranges, is `yaml`'s.
  expect(positionsOf(parseYamlFile('a.yaml', Buffer.from(text)).parsed!)).toEqual(positionsOf(precise.parsed!))
  // js-yaml's checks decline some texts `yaml` and the block reader agree on (a comment line
  // indented past a plain value); where it answers, it answers the same, with the same ranges.
  const jsYaml = parseWithJsYaml(text)
  if (jsYaml.ok) {
    expect(block.data).toStrictEqual(jsYaml.data)
    expect([...block.items]).toEqual([...(jsYaml.items ?? new Map())])
  }
  return 'answered'
}

/** The same text with Windows line breaks. */
const crlf = (text: string) => text.replaceAll('\n', '\r\n')

const benchFiles = (): string[] => {
  const { config } = buildAccount({ targets: 60, assets: 60, agents: 20 })
  return Object.entries(config).map(([list, items]) => stringify({ [list]: items }, { lineWidth: 0, aliasDuplicateObjects: false }))
}

describe('the block reader answers for configuration as tools and people write it', () => {
  it.each(benchFiles().map((text, i) => [i, text]))('the benchmark\'s files, as `yaml` writes them (%s)', (_, text) => {
    expect(expectAgreement(text)).toBe('answered')
    expect(expectAgreement(crlf(text))).toBe('answered')
  })

  it.each([
    ['comments, blank lines, quoted values and a comment after a value', [
      '# targets of the shop',
      'targets:',
      '',
      '  # the first',
      '  - id: T1   # after a plain value',
      '    site:',
      '      name: Shop',
    ].join('\n')],
    ['scalars of every kind', [
      'targets:',
      '  - id: T1',
      "    a: 'it''s'",
      '    b: "#d93f0b"  # colour',
      '    c: 22:00',
      '    d: -1',
      '    e: 0x1F',
      '    f: .inf',
      '    g: ~',
      '    h:',
      '    i: True',
      '    j: a#b',
      '    k: https://x.example.com/?a=1&b=*',
      '    l: "  spaced  "',
      "    m: ''",
      '    n: -0',
      '    o: 1e3',
      '    p: value with [brackets] and {braces}, commas',
      '    q: "x" ',
      '    r: \u00e9t\u00e9 \u00a0',
      '    s: \u{1F642} and "\u{1F600}"',
    ].join('\n')],
    ['flow collections, as `scansync import` writes them', [
      'targets:',
      '  - id: T1',
      '    labels: [production, {name: pci, color: "#d93f0b"}]',
      '    blacklist: [https://shop.example.com/logout, http://shop.example.com:8080/a]',
      '    scanning_agent: {id: Ag1}',
      '    blackout_period: {begin: "22:00", cease: "06:00", weekdays: [1, 2, 3], timezone: Europe/Lisbon}',
      '    headers: []',
      '    extra: {}',
      "    nested: [[a, 'b'], {x: [1, {y: z}]}, []]  # a comment",
      '    spaced: [ a b ,  c ]',
      '  - [a, b]',
      '  - {id: T2}   ',
    ].join('\n')],
    ['lists of scalars and of mappings, nested', [
      'agents:',
      '  - id: G1',
      '    teams:',
      '      - Tm1',
      '      - id: Tm2',
      '        name: two',
      '    labels:',
      '      -   x: 1',
      '          y: 2',
      'x-shared:',
      '  window:',
      '    begin: "22:00"',
      '',
    ].join('\n')],
  ])('%s', (_, text) => {
    expect(expectAgreement(text)).toBe('answered')
    expect(expectAgreement(crlf(text))).toBe('answered')
  })

  it('the file\'s last item ends where js-yaml ends it, with or without a final line break or comment', () => {
    for (const tail of ['', '\n', '\n\n', '\n# end\n', '\n  # end', '\nagents:\n']) {
      expect(expectAgreement(`targets:\n  - id: T1\n  - id: T2${tail}`)).toBe('answered')
      expect(expectAgreement(crlf(`targets:\n  - id: T1\n  - id: T2${tail}`))).toBe('answered')
    }
  })
})

describe('anything else is left to js-yaml, which reads it as before', () => {
  it.each([
    ['a flow list over two lines', 'a: [1,\n  2]\n'],
    ['a flow list with a trailing comma', 'a: [1, 2, ]\n'],
    ['a flow list with an empty entry', 'a: [1, , 2]\n'],
    ['a flow mapping with a key and no value', 'a: {b}\n'],
    ['a flow mapping with a quoted key', 'a: {"b": 1}\n'],
    ['a flow mapping with a key glued to its value', 'a: {b:1}\n'],
    ['a pair in a flow list', 'a: [b: 1]\n'],
    ['a colon ending a flow scalar', 'a: [b:, c]\n'],
    ['a lone dash in a flow list', 'a: [-]\n'],
    ['a dash before a flow indicator', 'a: {b: -, c: 1}\n'],
    ['a comment in a flow list', 'a: [b #c\n  ]\n'],
    ['a comment glued to a flow list', 'a: [b]#c\n'],
    ['text after a flow list', 'a: [b] c\n'],
    ['a duplicate key in a flow mapping', 'a: {b: 1, b: 2}\n'],
    ['a block scalar', 'a: |\n  x\n'],
    ['an escape', 'a: "x\\ty"\n'],
    ['a list at its key\'s column', 'a:\n- x\n'],
    ['a list item below its dash', 'a:\n  -\n    b: 1\n'],
    ['a list in a list item', 'a:\n  - - x\n'],
    ['a value over two lines', 'a: x\n  y\n'],
    ['a comment where the value would be', 'a: # c\n  b: 1\n'],
    ['a comment glued to a quoted value', 'a: "x"#c\n'],
    ['a quoted key', '"a": 1\n'],
    ['a key with a space', 'a b: 1\n'],
    ['a key that is a bool', 'true: 1\n'],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['a key named __proto__', '__proto__: 1\n'],
    ['a merge key', 'a:\n  <<: {b: 1}\n'],
    ['a tab', 'a:\tb\n'],
    ['a lone carriage return', 'a: 1\rb: 2\n'],
    ['a carriage return inside a value', 'a: x\ry\n'],
    ['a lone surrogate', 'a: x\ud83dy\n'],
    ['a lone low surrogate', 'a: x\ude00y\n'],
    ['a line separator', 'a: x\u2028y\n'],
    ['a control character', 'a: x\u0007\n'],
    ['a document marker', '---\na: 1\n'],
    ['a list at the top', '- a\n'],
    ['an indented top level', '  a: 1\n'],
    ['a plain value with ": "', 'a: b: c\n'],
    ['a plain value ending with ":"', 'a: b:\n'],
    ['a value starting with an indicator', 'a: &x 1\n'],
    ['a lone dash as a value', 'a: -\n'],
  ])('%s', (_, text) => {
    expect(parseBlockYaml(text)).toBeUndefined()
    // The fast path answers as js-yaml does, or sends the file to the precise path, as before.
    const fast = parseFast(text)
    if (fast.ok) expect(fast).toStrictEqual(parseWithJsYaml(text))
  })
})

// Differential fuzzing: block documents of the subset and near it, then damaged at random places.
// Mostly values and keys the block reader answers for (some of them subtle), and some it must decline.
const SCALARS = [
  'a', 'b c', 'k#v', 'k #v', "'it''s'", '"q"', '"q" # c', '"#d9"', '1', '-1', '-0', '0x1F', '0o7', '0b1', '.5', '+.5', '1e3', '1_000',
  'true', 'False', 'tRUE', 'null', 'NULL', '~', '', '22:00', '1:20', 'https://x/y?a=1&b=*', '.inf', '-.Inf', '.nan', 'y', 'no', 'a :b',
  'x  ', '\u00e9', '\u00a0x\u00a0', '\u{1F642}', 'a\u{1F642}b', '"\u{1F642}"', 'a\ud83d', 'x # c # d', '"a b" ', "'x' #c", "''", '"a: b"', "'#'", 'a]b', 'a,b', '-x', '?', ':', 'x:y',
]
const ODD_SCALARS = ['x: y', '"q"#c', '"a\\"b"', "'a", '@x', '`x', '-', '- x', '[a]', '{a: 1}', '|', '>', '&a x', '*a', '!t x', '%x', '?x', ': x', ':x', 'a:', 'a\u2028b', 'a\tb']
const KEYS = ['a', 'b', 'id', 'name', 'x-y', 'k.v', '_k', 'Null1', 'K', 'a1', 'b_c']
const ODD_KEYS = ['true', 'null', '__proto__', '"q"', 'a b', '-a', '1', '<<']
const DAMAGE = [' ', '  ', '\n', '\t', '#', ' #', ':', ': ', '-', '- ', '"', "'", '\n  ', '\n#c\n', '\n\n', '\r', 'x', '  - ', '\n- ']

const scalar = fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...SCALARS) }, { weight: 1, arbitrary: fc.constantFrom(...ODD_SCALARS) })
const key = fc.oneof({ weight: 15, arbitrary: fc.constantFrom(...KEYS) }, { weight: 1, arbitrary: fc.constantFrom(...ODD_KEYS) })

type Tree = { scalar: string } | { list: Tree[] } | { map: Array<[string, Tree]> } | { flow: string }

// Flow collections on one line, mostly of the kinds the block reader answers for.
const flowScalar = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('a', 'b c', '1', '-1', 'true', '~', '"q"', "'s''t'", '"#d9"', 'x ', 'Tm1', '22:00', '"22:00"', '.5', 'a#b', 'a?b', 'a-b', '-b', 'https://x.example.com/a?b=1', 'a:b', 'a::b', 'http://[::1]:8080/') },
  { weight: 1, arbitrary: fc.constantFrom('', 'a: b', 'a:b', '#c', ' #c', '- a', '&a', '*a', '!t a', '?', '@x', '"a\\"b"', "'a", 'a,', 'a:', 'a: ', ':a', 'a:,') },
)
const flow: fc.Arbitrary<string> = fc.letrec<{ flow: string }>((tie) => ({
  flow: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    flowScalar,
    fc.array(tie('flow'), { maxLength: 3 }).chain((items) => fc.constantFrom(', ', ',', ' , ').map((comma) => `[${items.join(comma)}]`)),
    fc.array(fc.tuple(key, tie('flow')), { maxLength: 3 }).map((entries) => `{${entries.map(([k, v]) => `${k}: ${v}`).join(', ')}}`),
  ),
})).flow

const tree: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar.map((text) => ({ scalar: text })),
    fc.array(tie('tree'), { minLength: 1, maxLength: 3 }).map((list) => ({ list })),
    fc.array(fc.tuple(key, tie('tree')), { minLength: 1, maxLength: 3 }).map((map) => ({ map })),
    flow.filter((text) => text.startsWith('[') || text.startsWith('{')).map((text) => ({ flow: text })),
  ),
})).tree

/** A value after `key:` or `- `, its nested lines indented by `step` past `indent`. */
function render(node: Tree, indent: number, step: number): string {
  const pad = ' '.repeat(indent + step)
  if ('scalar' in node) return ` ${node.scalar}`
  if ('flow' in node) return ` ${node.flow}`
  if ('list' in node) return node.list.map((item) => `\n${pad}- ${itemText(item, indent + step, step)}`).join('')
  return node.map.map(([key, value]) => `\n${pad}${key}:${render(value, indent + step, step)}`).join('')
}

/** A list item: a scalar on the dash's line, a mapping's first key there too, a list below. */
function itemText(node: Tree, dash: number, step: number): string {
  if ('scalar' in node) return node.scalar
  if ('flow' in node) return node.flow
  if ('map' in node) {
    const [[key, value], ...rest] = node.map
    const column = dash + 2
    return `${key}:${render(value, column, step)}${rest.map(([k, v]) => `\n${' '.repeat(column)}${k}:${render(v, column, step)}`).join('')}`
  }
  return render(node, dash, step).trimStart()
}

const document = fc
  .tuple(
    fc.array(fc.tuple(key, tree), { minLength: 1, maxLength: 3 }),
    fc.constantFrom(1, 2, 4),
    fc.boolean(),
    fc.oneof({ weight: 2, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(fc.tuple(fc.nat(), fc.constantFrom(...DAMAGE), fc.boolean()), { minLength: 1, maxLength: 2 }) }),
  )
  .map(([entries, step, windows, damage]) => {
    const text = entries.map(([key, value]) => `${key}:${render(value, 0, step)}\n`).join('')
    return damaged(windows ? crlf(text) : text, damage)
  })

describe('differential fuzzing of the block reader against `yaml` and js-yaml', () => {
  it('whenever it answers, both read the same data (and js-yaml the same item ranges)', () => {
    let answered = 0
    fc.assert(
      fc.property(document, (text) => {
        if (expectAgreement(text) === 'answered') answered++
      }),
      { numRuns: 6000, seed: 20261126 },
    )
    // The property says something only if the block reader answers often enough.
    expect(answered).toBeGreaterThan(800)
  })
})
