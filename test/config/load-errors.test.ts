import { afterAll, describe, expect, it } from 'vitest'
import { symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { loadConfig } from '../../src/config/load.js'
import { runValidate } from '../../src/cli/run/validate.js'
import { captureIo } from '../helpers/cli.js'
import { BAD_INPUTS, expectValidateRefuses } from './bad-inputs.js'
import { load, removeTestdirs, testdir } from './helpers.js'

afterAll(removeTestdirs)

describe('bad inputs give located diagnostics, and validate prints them (FILE:LINE:COLUMN: message, exit 1)', () => {
  it.each(BAD_INPUTS.map((c) => [c.name, c] as const))('%s', async (_, input) => {
    const cwd = testdir(input.files)
    const paths = input.paths ?? ['.']
    const { diagnostics } = await loadConfig(paths, { env: input.env ?? {}, cwd })
    expect(diagnostics).toEqual(
      input.expected.map((d) => ({
        ...d,
        path: d.path ?? expect.any(String),
        message: typeof d.message === 'string' ? d.message : expect.stringMatching(d.message),
      })),
    )
    // What `scansync validate` prints of them (it ran in a child for each case before; now for one of each family, in cli.test.ts).
    const io = captureIo({ env: input.env, cwd })
    const code = await runValidate({ paths }, io)
    expectValidateRefuses(input, { code, stdout: io.out(), stderr: io.err() })
  })
})

describe('hostile input', () => {
  it('an alias bomb fails fast', async () => {
    const bomb = BAD_INPUTS.find((c) => c.name === 'an alias bomb')!
    const started = performance.now()
    const { diagnostics } = await load(bomb.files)
    expect(performance.now() - started).toBeLessThan(1000)
    expect(diagnostics).toHaveLength(1)
  })

  it('a __proto__ key leaves Object.prototype clean', async () => {
    await load({
      'a.yaml': '__proto__:\n  polluted: 1\ntargets:\n  - id: T1\n    __proto__: {polluted: 2}\n    site: {__proto__: {polluted: 3}}\n',
      'b.yaml': 'constructor:\n  prototype:\n    polluted: 4\n',
    })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('polluted')
  })

  it('a __proto__ key is reported, not taken as the prototype of the value', async () => {
    const { diagnostics } = await load({ 'a.yaml': '__proto__:\n  targets: []\n' })
    expect(diagnostics).toEqual([
      { file: 'a.yaml', line: 1, column: 1, path: '__proto__', message: expect.stringMatching(/^__proto__: unknown field/) },
    ])
  })

  it('deep nesting is an error, not a crash', async () => {
    const deep = 'targets:\n  - id: T1\n    site: ' + '['.repeat(20_000) + ']'.repeat(20_000) + '\n'
    const { diagnostics } = await load({ 'a.yaml': deep })
    expect(diagnostics).toEqual([{ file: 'a.yaml', line: 3, column: expect.any(Number), path: '', message: 'YAML: the document is nested too deeply' }])
  })

  it('a value shared through an alias is resolved once per place, and each place records its template', async () => {
    const { diagnostics, config } = await load(
      {
        'a.yaml': [
          'targets:',
          '  - id: T1',
          '    site: &site',
          '      basic_auth: {username: scanner, password: "${PW}"}',
          '      desc: costs $${PRICE}',
          '  - id: T2',
          '    site: *site',
          '',
        ].join('\n'),
      },
      { PW: 'hunter2', PRICE: '12' },
    )
    expect(diagnostics).toEqual([])
    const [t1, t2] = config.resources
    for (const target of [t1, t2]) {
      expect(target.fields.site).toEqual({ basic_auth: { username: 'scanner', password: 'hunter2' }, desc: 'costs ${PRICE}' })
      expect([...target.templates]).toEqual([['site.basic_auth.password', '${PW}']])
    }
    expect(t1.fields.site).not.toBe(t2.fields.site)
  })
})

describe('YAML syntax errors point at their cause', () => {
  it.each([
    ['a bracket closed on an under-indented line: that line', 'targets:\n  - id: T1\n    labels: [a,\n    b]\n', 4, 5, /^YAML: Flow sequence .* end with a \]$/],
    ['an unclosed { inside [: the {', 'targets:\n  - id: T1\n    labels: [a, {name: b\n', 3, 17, /^YAML: the \{ opened here is never closed by a \}$/],
    ["an unclosed ' quote", "agents:\n  - id: G1\n    name: 'x\n", 3, 11, /^YAML: the quote ' opened here is never closed$/],
    ['a second document', 'agents:\n  - id: G1\n---\nagents: []\n', 3, 1, /^YAML: a second document starts here \(---\)/],
    ['an unquoted ${VAR} in a flow mapping', 'agents:\n  - {id: G1, name: ${NAME}}\n', 2, 21, /quote a value that holds \$\{…\}: "\$\{NAME\}"\)$/],
    ['an unquoted ": " in a value', 'agents:\n  - id: G1\n    name: a: b\n', 3, 11, /a value holding ": " must be quoted/],
    ['a duplicate key written quoted the second time', 'agents:\n  - id: G1\n    name: a\n    "name": b\n', 4, 5, /^YAML: duplicate key "name" \(first at line 3\)/],
  ])('%s', async (_, text, line, column, message) => {
    const { diagnostics } = await load({ 'a.yaml': text })
    expect(diagnostics).toEqual([{ file: 'a.yaml', line, column, path: '', message: expect.stringMatching(message) }])
  })

  it('reports every duplicate key, and the first syntax error', async () => {
    const { diagnostics } = await load({ 'a.yaml': 'agents:\n  - id: G1\n    id: G2\n  - name: a\n    name: b\n    teams: [x\n' })
    expect(diagnostics.map((d) => `${d.line}:${d.column}: ${d.message}`)).toEqual([
      '3:5: YAML: duplicate key "id" (first at line 2): a key may appear only once in a mapping',
      '5:5: YAML: duplicate key "name" (first at line 4): a key may appear only once in a mapping',
      '6:12: YAML: the [ opened here is never closed by a ]',
    ])
  })
})

describe('missing fields', () => {
  it('are reported together, at the key of the mapping that lacks them (or at the list item)', async () => {
    const { diagnostics } = await load({
      'a.yaml': [
        'targets:',
        '  - id: T1',
        '    site:',
        '      basic_auth:',
        '        username: u',
        '    blackout_period:',
        '      begin: "10:00"',
        '    labels:',
        '      - color: red',
        '',
      ].join('\n'),
    })
    expect(diagnostics.map((d) => `${d.line}:${d.column} ${d.path}: ${d.message}`)).toEqual([
      '4:7 targets[0].site.basic_auth: target T1: site.basic_auth: missing required field "password"',
      '6:5 targets[0].blackout_period: target T1: blackout_period: missing required fields "cease" and "weekdays"',
      '9:9 targets[0].labels[0]: target T1: labels[0]: missing required field "name"',
    ])
  })
})

describe('all errors at once', () => {
  it('reports every problem of every file, sorted by file then line', async () => {
    const { diagnostics } = await load({
      'b.yaml': 'agents:\n  - id: G2\n    name: 5\n  - id: G3\n    nam: x\n',
      'a.yaml': 'targets:\n  - id: T1\n    type: web\n    report_type: nope\n',
      'sub/c.yml': 'assets:\n  - id: A1\n    state: GONE\n',
    })
    expect(diagnostics.map((d) => `${d.file}:${d.line}`)).toEqual(['a.yaml:3', 'a.yaml:4', 'b.yaml:3', 'b.yaml:5', 'sub/c.yml:3'])
  })

  it('reports an id declared twice even when the other file has errors too', async () => {
    const { diagnostics } = await load({
      'a.yaml': 'agents:\n  - id: G1\n',
      'b.yaml': 'agents:\n  - id: G1\n    name: 5\n',
    })
    expect(diagnostics.map((d) => `${d.file}:${d.line}: ${d.message}`)).toEqual([
      'a.yaml:2: agent G1 is declared twice: here and at b.yaml:2',
      'b.yaml:2: agent G1 is declared twice: here and at a.yaml:2',
      'b.yaml:3: agent G1: name must be a string (got an integer; quote it: "5")',
    ])
  })
})

describe('a file that cannot be read', () => {
  it('is a located error, and the files around it are still read in order (each is read while the one before is parsed)', async () => {
    const cwd = testdir({ 'a.yaml': 'agents:\n  - id: Ag1\n    name: first\n', 'c.yaml': 'agents:\n  - id: Ag3\n    nam: third\n' })
    // A link to itself: its size cannot be known beforehand, and opening it fails (as root too).
    symlinkSync('b.yaml', join(cwd, 'b.yaml'))
    const { diagnostics, config } = await loadConfig(['.'], { env: {}, cwd })
    // Found broken by the search for files (review-r18-broken-links), it is not read at all.
    expect(diagnostics.map((d) => `${d.file}:${d.line}: ${d.message}`)).toEqual(['b.yaml:1: a symbolic link to b.yaml, which leads back to itself (a loop of symbolic links); it was not read', expect.stringMatching(/^c\.yaml:3: .*nam/)])
    expect(config.files).toEqual(['a.yaml', 'c.yaml'])
  })
})

describe('the YAML library talks to the user only through diagnostics', () => {
  it('a collection used as a key is an error, with no warning of Node on stderr', async () => {
    const warnings: string[] = []
    const listen = (warning: Error) => warnings.push(warning.message)
    process.on('warning', listen)
    try {
      const { diagnostics } = await load({ 'a.yaml': 'targets:\n  - id: abc\n    site:\n      [name, url]: x\n' })
      expect(diagnostics).toHaveLength(1)
      await new Promise((resolve) => setImmediate(resolve))
      expect(warnings).toEqual([])
    } finally {
      process.off('warning', listen)
    }
  })
})
