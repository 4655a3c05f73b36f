// Issue 8: the loader never crashes, never hangs and never pollutes a prototype, whatever it is
// given. fast-check generates files of four families (near-valid documents mutated, garbage
// YAML, hostile structures, raw bytes); every one goes through loadFile (src/config/load.ts)
// directly and must come back as resources or as located diagnostics.
//
// Two runs share these generators and checks: fuzz-loader.test.ts (every `npm test`) runs a tenth
// of the cases with a fixed seed; fuzz-loader.slow.test.ts (`npm run test:slow`) runs them all,
// at least 5,000, with a fresh seed. SCANSYNC_FUZZ_SCALE multiplies the number of cases of both
// (2 doubles them); SCANSYNC_FUZZ_SEED replays a failing run (fast-check prints the seed and the
// path of a failure).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { stringify } from 'yaml'
import { afterAll, describe, expect, it } from 'vitest'
import type { Env } from '../../src/config/interpolate.js'
import { loadFile, type LoadFileResult } from '../../src/config/load.js'
import { checkDeclared } from '../../src/plan/declared-checks.js'
import { ROOT } from '../helpers/cli.js'

const SCALE = Number(process.env.SCANSYNC_FUZZ_SCALE ?? 1)
const REPLAY = process.env.SCANSYNC_FUZZ_SEED === undefined ? undefined : Number(process.env.SCANSYNC_FUZZ_SEED)
/** Generous: a case of bounded size that takes this long is a hang in the making, not noise. */
const CASE_BUDGET_MS = 10_000

const FILE = 'fuzz/config.yaml'
const ENV: Env = { SET: 'value-from-env', EMPTY: '', DOLLAR: '$${x} $& $1', PW: 'hunter2-Secret' }

// ---------------------------------------------------------------------------------------------
// What the loader is checked against after each case

/** The names (and descriptors) of the prototypes a `__proto__` key could reach. */
const PROTOTYPES = { Object: Object.prototype, Array: Array.prototype, Function: Function.prototype, String: String.prototype }
const snapshot = () =>
  Object.fromEntries(
    Object.entries(PROTOTYPES).map(([name, proto]) => [
      name,
      Object.getOwnPropertyNames(proto)
        .sort()
        .map((key) => `${key}:${typeof Object.getOwnPropertyDescriptor(proto, key)?.value}`),
    ]),
  )
const PRISTINE = snapshot()

const stats = { cases: 0, valid: 0, invalid: 0, slowestMs: 0, byFamily: {} as Record<string, number> }

/** A raw stack trace: "    at fn (file:line:col)" lines, or an Error's own dump. */
const STACK = /\n\s+at |\bat [\w$.<>]+ \(.*:\d+:\d+\)|^\w*Error: /m

function check(family: string, bytes: Buffer): void {
  const started = performance.now()
  let result: LoadFileResult
  try {
    result = loadFile(FILE, bytes, ENV)
  } catch (error) {
    throw new Error(`loadFile threw on a ${family} case: ${(error as Error)?.stack ?? error}`)
  }
  stats.cases++
  stats.byFamily[family] = (stats.byFamily[family] ?? 0) + 1
  // A configuration that loads is checked further, as validate does (declared twice in keyed lists).
  const diagnostics = result.diagnostics.length > 0 || result.resources.length === 0 ? result.diagnostics : checkDeclared(result.resources)
  if (diagnostics.length > 0) stats.invalid++
  else stats.valid++
  for (const d of diagnostics) {
    // Read once: positions may be worked out lazily, on this very read.
    const { file, line, column, message } = d
    expect(file).toBe(FILE)
    expect(Number.isInteger(line) && line >= 1, `line ${line} of ${JSON.stringify(message)}`).toBe(true)
    expect(Number.isInteger(column) && column >= 1, `column ${column} of ${JSON.stringify(message)}`).toBe(true)
    expect(typeof message).toBe('string')
    expect(message.length).toBeGreaterThan(0)
    expect(message).not.toMatch(STACK)
    // A value from a variable is never echoed (the env holds a secret).
    expect(message).not.toContain(ENV.PW)
  }
  if (diagnostics.length === 0) {
    for (const resource of result.resources) {
      expect(resource.source.line).toBeGreaterThanOrEqual(1)
      expect(resource.source.column).toBeGreaterThanOrEqual(1)
      expect(Object.getPrototypeOf(resource.fields)).toBe(Object.prototype)
      // A position inside the resource (the lazy locator's per-item parse).
      const first = Object.keys(resource.fields)[0]
      if (first !== undefined) expect(resource.locate([first]).line).toBeGreaterThanOrEqual(1)
    }
  }
  stats.slowestMs = Math.max(stats.slowestMs, performance.now() - started)
  expect(performance.now() - started).toBeLessThan(CASE_BUDGET_MS)
}

// ---------------------------------------------------------------------------------------------
// Generators

/** Odd characters: controls, NUL, BOM, zero-width, RTL overrides, line separators, surrogates. */
const ODD = ['\u0000', '\u0007', '\b', '\t', '\v', '\f', '\r', '\u001b', '\u007f', '\u0085', '\u00a0', '\u200b', '\u200c', '\u200d', '\u2028', '\u2029', '\u202e', '\u2066', '\ufeff', '\ufffd', '\ufffe', '\uffff', '\ud800', '\udfff', '😀', '\u0301', 'é', 'ß', 'İ', '中', '\u{10ffff}']
/** Characters with a meaning in YAML. */
const SYNTAX = ['-', ':', ' ', '  ', '\n', '\r\n', '#', '&', '*', '!', '|', '>', '[', ']', '{', '}', ',', '?', '%', '@', '`', '"', "'", '\\', '$', '${', '$${', '}', '<<', '---', '...', '~']
/** Keys that name prototypes, and keys of the schema. */
const KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'targets', 'assets', 'agents', 'id', 'site', 'name', 'url', 'labels', 'teams', 'owners', 'state', 'comment', 'basic_auth', 'password', 'password_is_sensitive', 'headers', 'value', 'value_is_sensitive', 'blackout_period', 'weekdays', 'begin', 'scanning_agent', 'api_scan_settings', 'otp_secret', '<<', '']
/** Scalars YAML reads as something else than they look, and numbers written as strings. */
const SCALARS = ['"123"', "'1e3'", '0x1F', '0o17', '1_000', '.inf', '-.Inf', '.nan', '-0', '+12', '1e309', '12345678901234567890123', 'true', 'False', 'yes', 'no', 'on', 'null', '~', 'NULL', '2024-01-01', '22:00', '"22:00"', '06:00:00', '"#d93f0b"', '#d93f0b', '${SET}', '${UNSET}', '${EMPTY:-fb}', '${PW}', '$${SET}', '${BAD', '${1X}', '${SET:-${PW}}', '"\\u0000"', '"\\x24{SET}"', '"\\ud800"', '!!str 1', '!!binary aGk=', '!!js/function "f(){}"', '!!python/object:os.system', '!foo bar', '&a x', '*a', '*undefined', '|', '>-', '""', "''"]

const oddString = (max: number) =>
  fc.string({ unit: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...ODD) }, { weight: 2, arbitrary: fc.constantFrom(...SYNTAX) }, { weight: 5, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) }, { weight: 2, arbitrary: fc.constantFrom(...KEYS) }), maxLength: max })

/** A JSON-like tree with hostile keys and odd strings; the leaves include numbers as strings. */
const hostileTree = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: fc.oneof(oddString(20), fc.constantFrom(...SCALARS), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.integer().map(String)) },
    { weight: 1, arbitrary: fc.array(tie('node'), { maxLength: 5 }) },
    { weight: 1, arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), oddString(8)), tie('node'), { maxKeys: 5 }) },
  ),
})).node

/** A valid configuration, written in block, flow or JSON style. */
const validConfig = (): fc.Arbitrary<string> => {
  const id = fc.stringMatching(/^[A-Za-z0-9]{4,12}$/)
  const label = fc.oneof(fc.constantFrom('production', 'pci', 'staging'), fc.record({ name: fc.constantFrom('api', 'legacy'), color: fc.constantFrom('green', '#d93f0b', '') }))
  const target = fc.record(
    {
      id,
      site: fc.record({ name: fc.string({ maxLength: 30 }), url: fc.constantFrom('https://a.example.com/', 'https://b.example.com:8443/x'), desc: fc.option(fc.string({ maxLength: 20 }), { nil: null }), basic_auth: fc.record({ username: fc.constant('scanner'), password: fc.constantFrom('${PW}', 'literal-pw', '${UNSET:-fallback}'), password_is_sensitive: fc.boolean() }) }, { requiredKeys: [] }),
      labels: fc.uniqueArray(label, { maxLength: 3, selector: (l) => (typeof l === 'string' ? l : l.name) }),
      report_type: fc.constantFrom('pci', 'owasp_web_2025', 'default'),
      blackout_period: fc.record({ begin: fc.constantFrom('22:00', '08:30'), cease: fc.constantFrom('06:00', '18:00'), weekdays: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { maxLength: 4 }), enabled: fc.boolean() }),
      scanning_agent: fc.option(fc.record({ id }), { nil: null }),
      fail_fast: fc.boolean(),
    },
    { requiredKeys: ['id'] },
  )
  const asset = fc.record({ id, state: fc.constantFrom('NEW', 'ACTIVE', 'HIDDEN', 'ARCHIVED'), owners: fc.uniqueArray(fc.constantFrom('ops', 'sec', 'web'), { maxLength: 2 }), comment: fc.string({ maxLength: 20 }) }, { requiredKeys: ['id'] })
  const agent = fc.record({ id, name: fc.string({ minLength: 1, maxLength: 20 }), teams: fc.uniqueArray(fc.constantFrom('Tm1', 'Tm2', 'Tm3'), { maxLength: 2 }) }, { requiredKeys: ['id'] })
  return fc
    .tuple(
      fc.record({ targets: fc.array(target, { maxLength: 3 }), assets: fc.array(asset, { maxLength: 3 }), agents: fc.array(agent, { maxLength: 3 }) }, { requiredKeys: [] }),
      fc.constantFrom('block', 'flow', 'json'),
    )
    .map(([doc, style]) => (style === 'json' ? JSON.stringify(doc, null, 1) : stringify(doc, { lineWidth: 0, ...(style === 'flow' ? { collectionStyle: 'flow' as const } : {}) })))
}

const examples = readdirSync(join(ROOT, 'examples', 'config'), { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.yaml'))
  .map((name) => readFileSync(join(ROOT, 'examples', 'config', name), 'utf8'))

type Mutation = (text: string) => string
const at = (text: string, where: number) => Math.floor(where * (text.length + 1))

/** One edit of a text; `where` in [0, 1) places it. */
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  // Insert a fragment: syntax, odd characters, hostile keys, scalars.
  fc.tuple(fc.double({ min: 0, max: 0.999, noNaN: true }), fc.oneof(fc.constantFrom(...SYNTAX, ...ODD, ...SCALARS), fc.constantFrom(...KEYS).map((k) => `${k}: `), oddString(6))).map(
    ([where, fragment]): Mutation => (text) => text.slice(0, at(text, where)) + fragment + text.slice(at(text, where)),
  ),
  // Delete a stretch.
  fc.tuple(fc.double({ min: 0, max: 0.999, noNaN: true }), fc.integer({ min: 1, max: 40 })).map(([where, n]): Mutation => (text) => text.slice(0, at(text, where)) + text.slice(at(text, where) + n)),
  // Truncate (a file cut off while being written).
  fc.double({ min: 0, max: 0.999, noNaN: true }).map((where): Mutation => (text) => text.slice(0, at(text, where))),
  // Replace a value with one of the odd scalars.
  fc.tuple(fc.nat(), fc.constantFrom(...SCALARS)).map(([n, scalar]): Mutation => (text) => {
    const values = [...text.matchAll(/: ([^\n]+)/g)]
    if (values.length === 0) return text
    const m = values[n % values.length]
    return text.slice(0, m.index + 2) + scalar + text.slice(m.index + m[0].length)
  }),
  // Re-indent a line, or indent it with a tab.
  fc.tuple(fc.nat(), fc.constantFrom('', ' ', '   ', '\t', ' \t', '        ')).map(([n, indent]): Mutation => (text) => {
    const lines = text.split('\n')
    const i = n % lines.length
    lines[i] = indent + lines[i].trimStart()
    return lines.join('\n')
  }),
  // Duplicate or swap lines (duplicate keys and ids, misplaced list items).
  fc.tuple(fc.nat(), fc.nat()).map(([a, b]): Mutation => (text) => {
    const lines = text.split('\n')
    const i = a % lines.length
    const j = b % lines.length
    if (a % 2 === 0) lines.splice(j, 0, lines[i])
    else [lines[i], lines[j]] = [lines[j], lines[i]]
    return lines.join('\n')
  }),
  // Line ends and byte order marks.
  fc.constantFrom<Mutation>((t) => t.replaceAll('\n', '\r\n'), (t) => t.replaceAll('\n', '\r'), (t) => `\ufeff${t}`, (t) => `\ufeff\ufeff${t}`, (t) => t.replaceAll('  ', '\t'), (t) => t.replaceAll(': ', ':\t')),
  // Anchor a list item and alias it elsewhere (a duplicate id through an alias), or a merge key.
  fc.constantFrom<Mutation>(
    (t) => t.replace(/\n  - /, '\n  - &item ').replace(/\n(agents|assets|targets):\n/, '\n$1:\n  - *item\n'),
    (t) => t.replace(/\n    site:/, '\n    site: &s').replace(/\n  - id: (\w+)\n/, '\n  - id: $1\n    <<: *s\n'),
    (t) => t.replace(/^(\S)/m, '__proto__: &p {polluted: true}\n$1'),
  ),
)

const nearValid = fc
  .tuple(fc.oneof(fc.constantFrom(...examples), validConfig()), fc.array(mutation, { minLength: 0, maxLength: 4 }))
  .map(([text, edits]) => edits.reduce((t, edit) => edit(t), text))

/** YAML of a hostile tree, in one of several styles, sometimes under a top-level list key. */
const garbage = fc
  .tuple(hostileTree, fc.constantFrom('block', 'flow', 'json', 'under-targets'), fc.boolean())
  .map(([tree, style, crlf]) => {
    let text: string
    try {
      text = style === 'json' ? JSON.stringify(tree) : stringify(style === 'under-targets' ? { targets: [tree] } : tree, { lineWidth: 0, ...(style === 'flow' ? { collectionStyle: 'flow' as const } : {}) })
    } catch {
      text = String(tree)
    }
    return crlf ? text.replaceAll('\n', '\r\n') : text
  })

/** Structures built to hurt: deep nesting, long strings, long lines, alias fans, many keys. */
const hostile = fc.oneof(
  fc.integer({ min: 50, max: 3000 }).chain((n) =>
    fc.constantFrom(
      `targets:\n  - id: T1\n    site: ${'['.repeat(n)}${']'.repeat(n)}\n`,
      `targets:\n  - id: T1\n    site: ${'{a: '.repeat(n)}1${'}'.repeat(n)}\n`,
      `targets: ${'['.repeat(n)}\n`,
      'targets:\n' + Array.from({ length: Math.min(n, 400) }, (_, i) => `${' '.repeat(2 * i + 2)}- `).join('\n') + 'x\n',
      'targets:\n' + Array.from({ length: Math.min(n, 400) }, (_, i) => `${' '.repeat(2 * i + 2)}k${i}:`).join('\n') + ' x\n',
      `a: &a [x]\n${Array.from({ length: Math.min(n, 60) }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(8).fill(i === 0 ? '*a' : `*a${i}`).join(', ')}]`).join('\n')}\ntargets: *a${Math.min(n, 60)}\n`,
    ),
  ),
  fc.tuple(fc.integer({ min: 1_000, max: 200_000 }), fc.constantFrom('x', 'é', '😀', '\u200b', '\u202e', ' ', '"', "'", '\\', '$', '${', '#', ': ', '- ', '\t')).map(
    ([n, unit]) => `targets:\n  - id: T1\n    site:\n      name: ${unit.repeat(Math.ceil(n / unit.length))}\n`,
  ),
  fc.tuple(fc.integer({ min: 1_000, max: 100_000 }), fc.constantFrom('"', "'", '|\n        ', '>-\n        ')).map(
    ([n, quote]) => `targets:\n  - id: T1\n    site:\n      name: ${quote}${'a'.repeat(n)}${quote.length === 1 ? quote : ''}\n`,
  ),
  fc.integer({ min: 1_000, max: 50_000 }).map((n) => `${'k'.repeat(n)}: v\n`),
  fc.integer({ min: 100, max: 2_000 }).map((n) => `targets:\n  - id: T1\n    site:\n${Array.from({ length: n }, (_, i) => `      k${i}: ${i}`).join('\n')}\n`),
  fc.integer({ min: 100, max: 5_000 }).map((n) => `targets:\n${Array.from({ length: n }, (_, i) => `  - id: T${i % 50}\n    labels: [a, a]`).join('\n')}\n`),
  fc.integer({ min: 10, max: 2_000 }).map((n) => `targets:\n  - id: T1\n    site: {name: "${'${PW}'.repeat(n)}"}\n`),
  fc.integer({ min: 2, max: 500 }).map((n) => Array.from({ length: n }, () => 'targets: []').join('\n---\n')),
)

/** Bytes, not text: invalid UTF-8, surrogates encoded as CESU-8, NUL, BOMs of other encodings. */
const bytes = fc.oneof(
  fc.uint8Array({ maxLength: 2_000 }).map((b) => Buffer.from(b)),
  fc.tuple(fc.constantFrom(...examples), fc.nat(), fc.constantFrom([0xed, 0xa0, 0x80], [0xc0, 0x80], [0xff], [0xfe, 0xff], [0x00], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0xef, 0xbb, 0xbf])).map(([text, n, insert]) => {
    const buffer = Buffer.from(text)
    const i = n % (buffer.length + 1)
    return Buffer.concat([buffer.subarray(0, i), Buffer.from(insert), buffer.subarray(i)])
  }),
  fc.constantFrom(...examples).map((text) => Buffer.from(`\ufeff${text}`, 'utf16le')),
)

// ---------------------------------------------------------------------------------------------

/** Cases of each family in a full run (5,450 in all). */
const CASES = { nearValid: 3_000, garbage: 1_500, hostile: 250, bytes: 700 }
const FULL = Object.values(CASES).reduce((a, b) => a + b, 0)

/**
 * The fuzzing tests: `share` of the full run's cases (times SCANSYNC_FUZZ_SCALE), generated from
 * `seed` (a fresh one when undefined; SCANSYNC_FUZZ_SEED overrides both).
 */
export function describeLoaderFuzzing({ share, seed }: { share: number; seed?: number }): void {
  const scale = share * SCALE
  const runSeed = REPLAY ?? seed
  // Each case yields to the event loop before it runs: a family takes up to a minute on a loaded
  // runner, and a worker that never yields misses vitest's calls ("Timeout calling onTaskUpdate").
  const run = <T>(family: string, arbitrary: fc.Arbitrary<T>, numRuns: number, toBytes: (value: T) => Buffer) =>
    fc.assert(
      fc.asyncProperty(arbitrary, async (value) => {
        await new Promise((resolve) => setImmediate(resolve))
        check(family, toBytes(value))
      }),
      { numRuns: Math.round(numRuns * scale), ...(runSeed === undefined ? {} : { seed: runSeed }) },
    )

  const utf8 = (text: string) => Buffer.from(text, 'utf8')

  afterAll(() => {
    console.log(
      `loader fuzzing: ${stats.cases} cases (${Object.entries(stats.byFamily).map(([f, n]) => `${n} ${f}`).join(', ')}); ` +
        `${stats.valid} loaded, ${stats.invalid} refused with located diagnostics; slowest case ${Math.round(stats.slowestMs)} ms`,
    )
  })

  describe('loader fuzzing: never throws, never hangs, every failure located, no prototype touched', () => {
    it('near-valid documents (valid ones, mutated)', async () => {
      await run('near-valid', nearValid, CASES.nearValid, utf8)
    })

    it('garbage YAML: hostile keys, odd Unicode, numbers as strings, tags, anchors', async () => {
      await run('garbage', garbage, CASES.garbage, utf8)
    })

    it('hostile structures: deep nesting, huge strings and keys, alias fans, many keys, many documents', async () => {
      await run('hostile', hostile, CASES.hostile, utf8)
    })

    it('bytes: invalid UTF-8, CESU-8 surrogates, NUL, UTF-16', async () => {
      await run('bytes', bytes, CASES.bytes, (b) => b)
    })

    it(`ran at least ${Math.round(FULL * share).toLocaleString('en')} cases, and Object.prototype (and its kin) are as they were`, () => {
      // A full run is at least 5,000 cases, whatever the scale above 1.
      expect(stats.cases).toBeGreaterThanOrEqual(Math.round(FULL * share * Math.min(SCALE, 1)))
      if (share >= 1) expect(stats.cases).toBeGreaterThanOrEqual(Math.round(5_000 * Math.min(SCALE, 1)))
      expect(snapshot()).toEqual(PRISTINE)
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
      expect(([] as unknown as Record<string, unknown>).polluted).toBeUndefined()
    })
  })
}
