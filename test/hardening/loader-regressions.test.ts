// Issue 8: what the loader fuzzing and the scaling probes found, one regression test each.
//
// Four were hangs in the making: work quadratic in the size of a hostile file (quadratic-probes.ts,
// here at a tenth of their size; at full size in quadratic-probes.slow.test.ts, `npm run
// test:slow`). The fifth was a leak: a secret written as a number was echoed.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { LineCounter, parseDocument } from 'yaml'
import { describe, expect, it } from 'vitest'
import { loadFile } from '../../src/config/load.js'
import { parseYamlFile } from '../../src/config/read-yaml.js'
import { appendErrorsInPlace } from '../../src/schema/validator-code.js'
import { ROOT } from '../helpers/cli.js'
import { describeQuadraticProbes } from './quadratic-probes.js'

const load = (text: string) => loadFile('a.yaml', Buffer.from(text), {})

describeQuadraticProbes(0.1)

describe('the validators append errors in place', () => {
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
      { subject: 'agent ${AGENT_ID}', file: 'a.yaml', line: 3, column: 12, path: 'agents[0].teams', message: 'agent ${AGENT_ID}: teams must be a list or null (got a string)' },
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
