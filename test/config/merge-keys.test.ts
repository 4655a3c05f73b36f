// Merge keys and holders (contract, "Authoring at scale"): `<<: *a` and `<<: [*a, *b]` as in
// YAML 1.1 (own keys win, earlier sources win), top-level `x-…` keys ignored, every position of
// a merged value at the line where it is written; and the merge cases of the loader fuzzing
// (a merge of a non-mapping, a cycle, a bomb), with a fixed seed.
import fc from 'fast-check'
import { createRequire } from 'node:module'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { parseFast } from '../../src/config/fast-yaml.js'
import { loadFile } from '../../src/config/load.js'
import { parseYamlFile } from '../../src/config/read-yaml.js'
import { runPlan } from '../../src/cli/run/plan.js'
import { captureIo } from '../helpers/cli.js'
import { lineOf, load, removeTestdirs, testdir } from './helpers.js'

afterAll(removeTestdirs)

const CONTRACT = [
  'x-office-hours: &office-hours {begin: "08:00", cease: "18:00", weekdays: [1, 2, 3, 4, 5], timezone: Europe/Lisbon}',
  'x-labels: &prod-labels [production, {name: pci, color: "#d93f0b"}]',
  'targets:',
  '  - id: 2DZkoZH8WMEM',
  '    blackout_period: {<<: *office-hours, enabled: true}',
  '    labels: *prod-labels',
  '  - id: 3EAlpAI9XNFN',
  '    blackout_period:',
  '      <<: *office-hours',
  '      cease: "19:00"',
  '      enabled: false',
  '',
].join('\n')

describe('many aliases', () => {
  it("each alias is resolved from one pass over the file, not by yaml's scan of all that precede it (quadratic)", async () => {
    const Alias = (createRequire(import.meta.url)('yaml') as typeof import('yaml')).Alias
    const scan = vi.spyOn(Alias.prototype, 'resolve')
    try {
      const targets = Array.from({ length: 300 }, (_, i) => `  - id: T${String(i).padStart(11, '0')}\n    blackout_period: {<<: *office-hours, enabled: true}\n    labels: *prod-labels\n`)
      const { config, diagnostics } = await load({ 'a.yaml': `${CONTRACT.split('targets:')[0]}targets:\n${targets.join('')}` })
      expect(diagnostics).toEqual([])
      expect(config.resources).toHaveLength(300)
      expect(config.resources[299].fields).toEqual({
        blackout_period: { begin: '08:00', cease: '18:00', weekdays: [1, 2, 3, 4, 5], timezone: 'Europe/Lisbon', enabled: true },
        labels: [{ name: 'production' }, { name: 'pci', color: '#d93f0b' }],
      })
      expect(scan).not.toHaveBeenCalled()
    } finally {
      scan.mockRestore()
    }
  })
})

describe('merge keys: values', () => {
  it('the contract example: the anchor merged, own keys added, x- keys ignored', async () => {
    const { config, diagnostics } = await load({ 'a.yaml': CONTRACT })
    expect(diagnostics).toEqual([])
    expect(config.resources.map((r) => [r.id, r.fields])).toEqual([
      ['2DZkoZH8WMEM', {
        blackout_period: { begin: '08:00', cease: '18:00', weekdays: [1, 2, 3, 4, 5], timezone: 'Europe/Lisbon', enabled: true },
        labels: [{ name: 'production' }, { name: 'pci', color: '#d93f0b' }],
      }],
      ['3EAlpAI9XNFN', { blackout_period: { begin: '08:00', cease: '19:00', weekdays: [1, 2, 3, 4, 5], timezone: 'Europe/Lisbon', enabled: false } }],
    ])
  })

  it('own keys win wherever they stand; in a list of sources the earlier one wins', async () => {
    const text = [
      'x-a: &a {name: from-a, teams: [Tm1]}',
      'x-b: &b {name: from-b, teams: [Tm2]}',
      'agents:',
      '  - {name: own, <<: *a, id: G1}',
      '  - {<<: [*b, *a], id: G2}',
      '  - {<<: [*a, *b], id: G3, teams: [Tm3]}',
      '',
    ].join('\n')
    const { config, diagnostics } = await load({ 'a.yaml': text })
    expect(diagnostics).toEqual([])
    expect(config.resources.map((r) => [r.id, r.fields])).toEqual([
      ['G1', { name: 'own', teams: [{ id: 'Tm1' }] }],
      ['G2', { name: 'from-b', teams: [{ id: 'Tm2' }] }],
      ['G3', { name: 'from-a', teams: [{ id: 'Tm3' }] }],
    ])
  })

  it('a shared block merged into a merged block; each place its own copy', async () => {
    const text = [
      'x-base: &base {timezone: UTC, weekdays: [1, 2]}',
      'x-window: &window {<<: *base, begin: "22:00", cease: "06:00"}',
      'targets:',
      '  - {id: T1, blackout_period: {<<: *window, enabled: true}}',
      '  - {id: T2, blackout_period: {<<: *window, enabled: false}}',
      '',
    ].join('\n')
    const { config, diagnostics } = await load({ 'a.yaml': text })
    expect(diagnostics).toEqual([])
    const [t1, t2] = config.resources
    expect(t1.fields.blackout_period).toEqual({ timezone: 'UTC', weekdays: [1, 2], begin: '22:00', cease: '06:00', enabled: true })
    expect(t2.fields.blackout_period).toEqual({ timezone: 'UTC', weekdays: [1, 2], begin: '22:00', cease: '06:00', enabled: false })
    expect((t1.fields.blackout_period as { weekdays: unknown }).weekdays).not.toBe((t2.fields.blackout_period as { weekdays: unknown }).weekdays)
  })

  it('x- keys may hold anything, and are not checked; other unknown top-level keys still are', async () => {
    const ok = await load({ 'a.yaml': 'x-anything: {not: [a, target]}\nx-: 1\nagents: []\n' })
    expect(ok.diagnostics).toEqual([])
    const bad = await load({ 'a.yaml': 'x-fine: 1\nxtargets: []\n' })
    expect(bad.diagnostics).toHaveLength(1)
    expect(bad.diagnostics[0]).toMatchObject({ line: 2, column: 1 })
  })

  it('a variable inside an anchor is resolved at each place that uses it, and is sensitive there', async () => {
    const text = 'x-auth: &auth {username: scanner, password: "${PW}"}\ntargets:\n  - id: T1\n    site: {basic_auth: {<<: *auth}}\n'
    const { config, diagnostics } = await load({ 'a.yaml': text }, { PW: 'hunter2' })
    expect(diagnostics).toEqual([])
    expect(config.resources[0].fields).toEqual({ site: { basic_auth: { username: 'scanner', password: 'hunter2' } } })
    expect([...config.resources[0].templates]).toEqual([['site.basic_auth.password', '${PW}']])
  })

  it('both YAML paths agree: the fast path declines a merge key, the precise path merges it', () => {
    for (const text of [CONTRACT, 'a: {<<: {b: 1}, c: 2}\n', 'a:\n  <<: {b: 1}\n']) {
      expect(parseFast(text)).toMatchObject({ ok: false })
      const fast = parseYamlFile('a.yaml', Buffer.from(text))
      const precise = parseYamlFile('a.yaml', Buffer.from(text), { fastPath: false })
      expect(fast.parsed?.data).toStrictEqual(precise.parsed?.data)
    }
    // A quoted "<<" is an ordinary key on both paths.
    const quoted = '"<<": {b: 1}\n'
    expect(parseFast(quoted)).toMatchObject({ ok: true, data: { '<<': { b: 1 } } })
    expect(parseYamlFile('a.yaml', Buffer.from(quoted), { fastPath: false }).parsed?.data).toStrictEqual({ '<<': { b: 1 } })
  })
})

describe('merge keys: positions, errors and annotations at the line where the value is written', () => {
  it('a merged value is located inside the anchor; an own value where it stands', async () => {
    const { config } = await load({ 'a.yaml': CONTRACT })
    const [first, second] = config.resources
    const anchorLine = lineOf(CONTRACT, 'x-office-hours')
    expect({ ...first.locate(['blackout_period', 'begin']) }).toEqual({ file: 'a.yaml', line: anchorLine, column: CONTRACT.split('\n')[0].indexOf('"08:00"') + 1 })
    expect(first.locate(['blackout_period', 'enabled']).line).toBe(lineOf(CONTRACT, 'enabled: true'))
    expect(second.locate(['blackout_period', 'cease']).line).toBe(lineOf(CONTRACT, 'cease: "19:00"'))
    expect(second.locate(['blackout_period', 'weekdays', 2]).line).toBe(anchorLine)
    // Through a plain alias too.
    expect(first.locate(['labels', 1, 'color']).line).toBe(lineOf(CONTRACT, 'x-labels'))
  })

  it('an error inside a merged block is reported in the anchor, once per place that uses it', async () => {
    const text = [
      'x-window: &window',
      '  begin: "08:00"',
      '  cease: "18:00"',
      '  weekdays: [1, 2, 9]',
      '  timezon: UTC',
      'targets:',
      '  - id: T1',
      '    blackout_period: {<<: *window, enabled: true}',
      '',
    ].join('\n')
    const { diagnostics } = await load({ 'a.yaml': text })
    expect(diagnostics.map((d) => [d.line, d.path])).toEqual([
      [lineOf(text, 'weekdays'), 'targets[0].blackout_period.weekdays[2]'],
      [lineOf(text, 'timezon'), 'targets[0].blackout_period.timezon'],
    ])
    expect(diagnostics[1]).toMatchObject({ column: 3, message: expect.stringMatching(/timezon: unknown field.*timezone/) })
  })

  it('an unset variable inside an anchor is reported at the anchor', async () => {
    const text = 'x-auth: &auth {username: scanner, password: "${NOPE}"}\ntargets:\n  - id: T1\n    site: {basic_auth: {<<: *auth}}\n'
    const { diagnostics } = await load({ 'a.yaml': text })
    expect(diagnostics).toHaveLength(1)
    expect(diagnostics[0]).toMatchObject({ line: 1, path: 'targets[0].site.basic_auth.password', message: expect.stringContaining('NOPE') })
  })

  it('with --format github, the annotation of an error in a merged block points into the anchor', async () => {
    const text = 'x-window: &window {begin: "8 o\'clock", cease: "18:00", weekdays: [1]}\ntargets:\n  - id: T1\n    blackout_period: {<<: *window}\n'
    const io = captureIo({ cwd: testdir({ 'a.yaml': text }), env: {} })
    const code = await runPlan({ mode: 'plan', format: 'github', paths: ['.'] }, io)
    expect(code).toBe(1)
    expect(io.err()).toMatch(/^::error file=a\.yaml,line=1,col=\d+,title=scansync%3A invalid configuration::.*begin/m)
  })
})

describe('merge keys: hostile and malformed merges fail fast, located', () => {
  const env = {}
  const loadText = (text: string) => loadFile('a.yaml', Buffer.from(text), env)

  it.each([
    ['a scalar', 'targets:\n  - id: T1\n    site: {<<: 5}\n', 3, /merge key \(<<\) takes a mapping.*not a single value/],
    ['an alias of a scalar', 'x-n: &n 5\ntargets:\n  - id: T1\n    site: {<<: *n}\n', 4, /not a single value/],
    ['a list holding a scalar', 'x-a: &a {name: x}\ntargets:\n  - id: T1\n    site:\n      <<: [*a, 7]\n', 5, /not a single value/],
    // At the merge that names the list (a new user's review: it pointed into the anchor, at the list's first item).
    ['an alias of a list of scalars', 'x-l: &l [1, 2]\ntargets:\n  - id: T1\n    site: {<<: *l}\n', 4, /not \*l: a list whose items are not all mappings/],
    ['an alias of a list of scalars, in block style', 'x-l: &l\n  - 1\n  - 2\ntargets:\n  - id: T1\n    site:\n      <<: *l\n      name: x\n', 7, /not \*l: a list whose items are not all mappings/],
    ['nothing', 'targets:\n  - id: T1\n    site:\n      <<:\n', 4, /not nothing/],
  ])('a merge of %s', (_, text, line, message) => {
    const { diagnostics, resources } = loadText(text)
    expect(resources).toEqual([])
    expect(diagnostics).toEqual([expect.objectContaining({ file: 'a.yaml', line, message: expect.stringMatching(message) })])
  })

  it('a merge cycle (an alias inside the mapping it names) is refused at the alias', () => {
    const text = 'targets:\n  - &t\n    id: T1\n    site: {name: x}\n    <<: *t\n'
    const { diagnostics } = loadText(text)
    expect(diagnostics).toEqual([expect.objectContaining({ line: 5, column: 9, message: expect.stringMatching(/\*t is inside the node it names.*cycle/) })])
    const nested = 'x-a: &a {b: {<<: *a}}\n'
    expect(loadText(nested).diagnostics).toEqual([expect.objectContaining({ line: 1, message: expect.stringMatching(/cycle/) })])
  })

  it('a merge bomb (each level merging the one below twice) is refused fast, before it is expanded', () => {
    const levels = ['x-0: &m0 {a: 1, b: 2, c: 3}']
    for (let i = 1; i <= 40; i++) levels.push(`x-${i}: &m${i} {<<: [*m${i - 1}, *m${i - 1}], k${i}: *m${i - 1}, l${i}: *m${i - 1}}`)
    const started = performance.now()
    const { diagnostics } = loadText(`${levels.join('\n')}\ntargets: []\n`)
    expect(performance.now() - started).toBeLessThan(2000)
    expect(diagnostics).toEqual([expect.objectContaining({ line: 1, column: 1, message: expect.stringMatching(/too many aliases expanded/) })])
  })

  it('a window shared by 1,000 targets is no bomb', () => {
    const targets = Array.from({ length: 1000 }, (_, i) => `  - {id: T${i}, blackout_period: {<<: *w, enabled: true}, labels: *l}`)
    const text = `x-w: &w {begin: "22:00", cease: "06:00", weekdays: [1, 2, 3, 4, 5], timezone: UTC}\nx-l: &l [production, pci]\ntargets:\n${targets.join('\n')}\n`
    const { diagnostics, resources } = loadText(text)
    expect(diagnostics).toEqual([])
    expect(resources).toHaveLength(1000)
    expect(resources[999].locate(['blackout_period', 'timezone']).line).toBe(1)
  })

  it('merging __proto__ leaves every prototype alone and keeps it an own (unknown) key', () => {
    const text = 'x-p: &p {__proto__: {polluted: true}, name: x}\nagents:\n  - {id: G1, <<: *p}\n'
    const { diagnostics } = loadText(text)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(diagnostics).toEqual([expect.objectContaining({ line: 1, path: 'agents[0].__proto__', message: expect.stringMatching(/__proto__: unknown field/) })])
  })

  // Random merges built from a few anchors: sources that are mappings, scalars, lists, aliases of
  // themselves or of later anchors, nested. Whatever comes, loadFile returns (never throws), fast,
  // with every diagnostic located on a line of the file, and no prototype touched.
  it('random merges: never throw, never hang, every failure located (fixed seed)', () => {
    const source = fc.oneof(
      fc.constantFrom('*a', '*b', '*c', '*self', '{name: n}', '5', '[1, 2]', 'null', '{__proto__: {polluted: 1}}', '"x"'),
      fc.array(fc.constantFrom('*a', '*b', '*c', '*self', '{teams: [Tm1]}', '1'), { minLength: 1, maxLength: 4 }).map((items) => `[${items.join(', ')}]`),
    )
    const text = fc.tuple(fc.array(source, { minLength: 1, maxLength: 4 }), fc.boolean()).map(([merges, block]) => {
      const lines = ['x-a: &a {name: a, teams: [Tm1]}', 'x-b: &b {<<: *a, name: b}', 'x-c: &c [1]', 'agents:']
      merges.forEach((merge, i) => {
        lines.push(block ? `  - &self\n    id: G${i}\n    <<: ${merge}` : `  - &self {id: G${i}, <<: ${merge}}`)
      })
      return lines.join('\n') + '\n'
    })
    fc.assert(
      fc.property(text, (yamlText) => {
        const lineCount = yamlText.split('\n').length
        const started = performance.now()
        const result = loadText(yamlText)
        expect(performance.now() - started).toBeLessThan(1000)
        for (const d of result.diagnostics) {
          expect(d.line).toBeGreaterThanOrEqual(1)
          expect(d.line).toBeLessThanOrEqual(lineCount)
        }
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
      }),
      { numRuns: 300, seed: 1515 },
    )
  })
})
