// Issue 8: what the loader fuzzing and the scaling probes found, one regression test each.
//
// Four were hangs in the making: work quadratic in the size of a hostile file, so that a file of
// a few hundred kilobytes (a pull request, in CI) held a run for minutes or hours. Each test
// below feeds a file large enough that the old code would have run far past vitest's timeout
// (given per test), while the fixed code takes a second or two: no wall-clock assertion, the
// timeout is the check. The fifth was a leak: a secret written as a number was echoed.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { LineCounter, parseDocument } from 'yaml'
import { describe, expect, it } from 'vitest'
import { loadFile } from '../../src/config/load.js'
import { parseYamlFile } from '../../src/config/read-yaml.js'
import { appendErrorsInPlace } from '../../src/schema/validator-code.js'
import { ROOT } from '../helpers/cli.js'

const load = (text: string) => loadFile('a.yaml', Buffer.from(text), {})
/** Generous for a linear run on a slow 2-core runner; the quadratic runs took minutes. */
const BUDGET = 30_000

describe('no work quadratic in the size of a file', () => {
  it('a long run of spaces or tabs (the nullKey pattern of the fast path backtracked over it from every space)', { timeout: BUDGET }, () => {
    // Before: 40,000 spaces took 0.6 s, so 500,000 took about 90 s.
    const run = 500_000
    for (const blank of [' ', '\t']) {
      const spaces = blank.repeat(run)
      const result = load(`targets:\n  - id: T1\n    site:\n      name: x${spaces}\n      desc: {a: b${spaces}}\n`)
      expect(result.diagnostics.length).toBeGreaterThan(0)
      expect(load(`targets:\n  - id: T1\n    site: {name: x}${spaces}\n`).diagnostics).toEqual([])
    }
  })

  it('a mapping of 100,000 keys on the precise path (`yaml` compared each key with every key before it)', { timeout: BUDGET }, () => {
    // The anchor sends the file to the precise path. Before: 10,000 keys took 1.2 s; 100,000, two minutes.
    const n = 100_000
    const text = `x: &a 1\ntargets:\n  - id: T1\n    site:\n${Array.from({ length: n }, (_, i) => `      k${i}: ${i}`).join('\n')}\n      k7: again\n`
    const { diagnostics } = load(text)
    expect(diagnostics).toHaveLength(1)
    expect(diagnostics[0]).toMatchObject({ line: n + 5, column: 7, message: 'YAML: duplicate key "k7" (first at line 12): a key may appear only once in a mapping' })
  })

  it('20,000 mappings each with a duplicate key (each duplicate searched the whole document for its first place)', { timeout: BUDGET }, () => {
    // Before: 10,000 took 31 s; 20,000, two minutes.
    const n = 20_000
    const { diagnostics } = load(`targets:\n${Array.from({ length: n }, (_, i) => `  - {id: T${i}, id: x}`).join('\n')}\n`)
    expect(diagnostics).toHaveLength(n)
    expect(diagnostics[n - 1]).toMatchObject({ line: n + 1, column: 18, message: `YAML: duplicate key "id" (first at line ${n + 1}): a key may appear only once in a mapping` })
  })

  it('100,000 unknown keys, each located (finding a key looked through every key of its mapping)', { timeout: BUDGET }, () => {
    // Before: 40,000 took 9 s; 100,000, a minute. Positions are worked out when read: all are read.
    const n = 100_000
    const { diagnostics } = load(Array.from({ length: n }, (_, i) => `k${i}: v`).join('\n'))
    expect(diagnostics).toHaveLength(n)
    const lines = diagnostics.map((d) => d.line)
    expect(lines[0]).toBe(1)
    expect(lines[n - 1]).toBe(n)
    expect(diagnostics[n - 1].message).toMatch(/^k99999: unknown field/)
  })

  it('50,000 bad labels (Ajv copied every error so far for each failing item; the anyOf pruning compared every error with every other)', { timeout: BUDGET }, () => {
    // Before: 20,000 took 42 s (a 100 KB file); 50,000, minutes.
    const n = 50_000
    const { diagnostics } = load(`targets:\n  - id: T1\n    labels: [${Array(n).fill('{name: 1, color: "!"}').join(', ')}]\n`)
    expect(diagnostics).toHaveLength(2 * n)
    expect(diagnostics[0].message).toBe('target T1: labels[0].name must be a string (got an integer; quote it: "1")')
  })

  it('the precompiled validators (npm run build) and the ones compiled at run time append errors in place', () => {
    const built = readFileSync(join(ROOT, 'dist', 'schema', 'validators.cjs'), 'utf8')
    expect(built).not.toContain('vErrors.concat(')
    expect(built).toContain('else for (const e of validate')
    expect(appendErrorsInPlace('{vErrors = vErrors === null ? root1.validate.errors : vErrors.concat(root1.validate.errors);errors = vErrors.length;}')).toBe(
      '{if (vErrors === null) vErrors = root1.validate.errors; else for (const e of root1.validate.errors) vErrors.push(e);errors = vErrors.length;}',
    )
  })
})

describe('duplicate keys found in one pass are those `yaml` finds with uniqueKeys', () => {
  // Keys of every kind but the empty one (`: x`), which `yaml` places at the colon and the one
  // pass at the start of its line.
  const key = fc.constantFrom('a', 'b', '"a"', "'a'", '1', '"1"', '01', '0x1', '1.0', 'true', 'True', 'null', '~', '.nan', '.NaN', '-0', '0', '[a]', '{a: 1}', '*x', '&y a', '!!str 1', '? a')
  const value = fc.constantFrom('1', 'x', '[a, a]', '{a: 1, a: 2}', '&x v', '*x', '"s"', '')
  const block = fc.array(fc.tuple(key, value, fc.boolean()), { minLength: 1, maxLength: 8 }).map((pairs) =>
    pairs.map(([k, v, nested]) => (nested ? `${k}:\n  ${k}: ${v}\n  ${k}: ${v}` : `${k}: ${v}`)).join('\n') + '\n',
  )
  const flow = fc.array(fc.tuple(key, value), { minLength: 1, maxLength: 8 }).map((pairs) => `{${pairs.map(([k, v]) => `${k}: ${v}`).join(', ')}}\n`)

  it('same places, every case (fast-check)', () => {
    let withDuplicates = 0
    fc.assert(
      fc.property(fc.oneof(block, flow), (text) => {
        const reference = parseDocument(text, { uniqueKeys: true, prettyErrors: false, merge: false, lineCounter: new LineCounter() })
        const counter = new LineCounter()
        parseDocument(text, { lineCounter: counter })
        // A document with a syntax error is refused for it; what `yaml` makes of the rest in its
        // recovery is no reference.
        if (reference.errors.some((e) => e.code !== 'DUPLICATE_KEY')) return
        const offsets = reference.errors.map((e) => e.pos[0])
        const place = (offset: number) => {
          const { line, col } = counter.linePos(offset)
          return `${line}:${col}`
        }
        const { diagnostics } = parseYamlFile('a.yaml', Buffer.from(text), { fastPath: false })
        const found = diagnostics.filter((d) => d.message.startsWith('YAML: duplicate key')).map((d) => `${d.line}:${d.column}`)
        // As many, and at the same places. (After an empty value `yaml` places the error at the end
        // of the line before the key, where the old code then said "duplicate key" without the
        // key's name or first place; it is now at the key itself.)
        expect(found).toHaveLength(offsets.length)
        for (const offset of offsets) if (!/\s/.test(text[offset] ?? '')) expect(found).toContain(place(offset))
        const expected = offsets
        if (expected.length > 0) withDuplicates++
      }),
      { numRuns: 1_000 },
    )
    expect(withDuplicates).toBeGreaterThan(100)
  })
})

describe('a secret written in clear in the YAML is never repeated by a diagnostic', () => {
  it('a password, an otp_secret or a flagged value written as a number: "quote it", without the value', () => {
    const { diagnostics } = load(
      [
        'targets:',
        '  - id: T1',
        '    site:',
        '      basic_auth: {username: scanner, password: 98765432}',
        '      otp_secret: 4242424242',
        '      headers:',
        '        - {name: X-Key, value: 55555555, value_is_sensitive: true}',
        '      cookies:',
        '        - {name: session, value: 77777777, value_is_sensitive: "yes"}',
        '      form_login:',
        '        - {name: email, value: 12121212}',
        '',
      ].join('\n'),
    )
    const messages = diagnostics.map((d) => d.message)
    expect(messages).toEqual(
      expect.arrayContaining([
        'target T1: site.basic_auth.password must be a string (got an integer; quote it)',
        'target T1: site.otp_secret must be a string (got an integer; quote it)',
        'target T1: site.headers[0].value must be a string (got an integer; quote it)',
        'target T1: site.cookies[0].value must be a string (got an integer; quote it)',
        // Not a secret: shown, so that the fix is plain.
        'target T1: site.form_login[0].value must be a string (got an integer; quote it: "12121212")',
      ]),
    )
    for (const secret of ['98765432', '4242424242', '55555555', '77777777']) expect(messages.join('\n')).not.toContain(secret)
  })
})

describe('resource ids', () => {
  it('an id from a variable is refused at its place, and the value is in no message (it was the name of the resource in every message)', () => {
    const result = loadFile('a.yaml', Buffer.from('agents:\n  - id: ${AGENT_ID}\n    teams: "123"\n  - id: "$${LITERAL}"\n'), { AGENT_ID: 'Secret-Agent-Id-42' })
    expect(result.diagnostics).toEqual([
      {
        file: 'a.yaml', line: 2, column: 9, path: 'agents[0].id',
        message: 'agents[0].id: an id cannot come from a variable (${AGENT_ID}): values from variables are secrets, and an id is shown in every plan and sent in every URL; write the id itself',
      },
      { file: 'a.yaml', line: 3, column: 12, path: 'agents[0].teams', message: 'agent ${AGENT_ID}: teams must be a list or null (got a string)' },
    ])
    expect(JSON.stringify(result)).not.toContain('Secret-Agent-Id-42')
  })

  it('a top-level key named like a prototype member is not taken for a kind ("function Object() { [native code] } X1: …")', () => {
    const { diagnostics } = loadFile('a.yaml', Buffer.from('constructor:\n  - id: X1\n    name: ${UNSET}\n'), {})
    expect(diagnostics.map((d) => d.message).sort()).toEqual([
      'constructor: unknown field (known fields: targets, assets, agents, policies)',
      'constructor[0].name: environment variable UNSET is not set (referenced here; set it, or write ${UNSET:-fallback})',
    ])
  })
})
