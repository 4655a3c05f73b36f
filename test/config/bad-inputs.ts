// Bad configurations and the diagnostics they must give. Every case runs in-process once
// (load-errors.test.ts: the loader's diagnostics, and `validate`'s lines on stderr), through both
// YAML parsers (fast-yaml.test.ts, which compares them), and one case of each family of error runs
// through the real executable (cli.test.ts, FAMILIES below).
import { expect } from 'vitest'
import type { Diagnostic } from '../../src/core/diagnostics.js'

export interface BadInput {
  name: string
  files: Record<string, string | Buffer>
  /** PATH arguments; default the directory itself. */
  paths?: string[]
  env?: Record<string, string>
  /** Diagnostics, in order; `message` may be a pattern. */
  expected: Array<Omit<Diagnostic, 'message' | 'path'> & { path?: string; message: string | RegExp }>
}

const BOMB = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...'bcdefghi'.split('').map((name, i) => {
    const previous = 'abcdefghi'[i]
    return `${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`
  }),
  'targets: *i',
  '',
].join('\n')

export const BAD_INPUTS: BadInput[] = [
  {
    name: 'a quoted value continued on a line not indented under its key: said as such, not as a quote never closed',
    files: { 'a.yaml': 'targets:\n  - id: T1\n    site:\n      name: "Shop\n      Production"\n      url: https://shop.example.com/\n' },
    expected: [{ file: 'a.yaml', line: 4, column: 13, path: '', message: 'YAML: the quote " opened here is not closed on its line, and the lines after it are not indented more than its key: indent the rest of the value, or write it on one line' }],
  },
  {
    // `yaml` read it as the text "db_password", which a plan would have sent as the password.
    name: 'a tag scansync does not read (!secret), at the tag',
    files: { 'a.yaml': 'targets:\n  - id: T1\n    site:\n      basic_auth: {username: u, password: !secret db_password}\n' },
    expected: [{ file: 'a.yaml', line: 4, column: 43, path: '', message: 'the tag !secret is not one scansync reads here: write the value itself (quoted, for a text), or ${NAME} for a value from the environment' }],
  },
  {
    name: 'a tag of YAML 1.1 types (!!timestamp), at the tag',
    files: { 'a.yaml': 'targets:\n  - id: T1\n    site:\n      name: !!timestamp 2024-01-01\n' },
    expected: [{ file: 'a.yaml', line: 4, column: 13, path: '', message: 'the tag !!timestamp is not one scansync reads here: write the value itself (quoted, for a text), or ${NAME} for a value from the environment' }],
  },
  {
    name: 'an alias with no anchor before it, at the alias (not at 1:1)',
    files: { 'a.yaml': 'targets:\n  - id: T1\n    labels: *nolabels\nx-l: &nolabels [a]\n' },
    expected: [{ file: 'a.yaml', line: 3, column: 13, path: '', message: 'the alias *nolabels names no anchor before it: write &nolabels on the value it stands for, above this line' }],
  },
  {
    name: 'a merge of an alias with no anchor, said as such (not as a merge of a single value)',
    files: { 'a.yaml': 'targets:\n  - id: T1\n    blackout_period: {<<: *missing}\n' },
    expected: [{ file: 'a.yaml', line: 3, column: 27, path: '', message: 'the alias *missing names no anchor before it: write &missing on the value it stands for, above this line' }],
  },
  {
    // js-yaml made broken text of it (two lone surrogates) that a plan would have sent.
    name: 'an escape past U+10FFFF is refused, by both parsers',
    files: { 'a.yaml': 'targets:\n  - id: T1\n    site:\n      name: "Shop \\U00110000"\n' },
    expected: [{ file: 'a.yaml', line: 4, column: 19, path: '', message: /^YAML: Invalid escape sequence \\U00110000/ }],
  },
  {
    name: 'YAML syntax error: an unclosed quote, reported where it opens',
    files: { 'a.yaml': 'agents:\n  - id: G1\n    name: "dc-lisbon\n  - id: G2\n' },
    expected: [{ file: 'a.yaml', line: 3, column: 11, path: '', message: 'YAML: the quote " opened here is never closed' }],
  },
  {
    name: 'YAML syntax error: an unclosed flow sequence, reported where it opens',
    files: { 'a.yaml': 'targets:\n  - id: T1\n    labels: [prod, staging\n    fail_fast: true\n' },
    expected: [{ file: 'a.yaml', line: 3, column: 13, path: '', message: 'YAML: the [ opened here is never closed by a ]' }],
  },
  {
    name: 'YAML syntax error: misaligned mapping',
    files: { 'a.yaml': 'agents:\n  - id: G1\n     name: x\n    teams: []\n' },
    expected: [
      {
        file: 'a.yaml', line: 3, column: 6, path: '',
        message: 'YAML: this key is indented more than the keys before it; the keys of one mapping must start at the same column',
      },
    ],
  },
  {
    name: 'duplicate key, naming the key and its first place',
    files: { 'a.yaml': 'agents:\n  - id: G1\n    name: a\n    teams: []\n    name: b\n' },
    expected: [{ file: 'a.yaml', line: 5, column: 5, path: '', message: 'YAML: duplicate key "name" (first at line 3): a key may appear only once in a mapping' }],
  },
  {
    name: 'unknown key, with a suggestion',
    files: { 'a.yaml': 'targets:\n  - id: T1\n    sitee:\n      name: Shop\n' },
    expected: [{ subject: 'target T1', file: 'a.yaml', line: 3, column: 5, path: 'targets[0].sitee', message: 'target T1: sitee: unknown field; did you mean "site"?' }],
  },
  {
    name: 'unknown nested key, with a suggestion',
    files: { 'a.yaml': 'targets:\n  - id: T1\n    site:\n      nmae: Shop\n' },
    expected: [{ subject: 'target T1', file: 'a.yaml', line: 4, column: 7, path: 'targets[0].site.nmae', message: 'target T1: site.nmae: unknown field; did you mean "name"?' }],
  },
  {
    name: 'unknown top-level key, with a suggestion',
    files: { 'a.yaml': 'target:\n  - id: T1\n' },
    expected: [{ file: 'a.yaml', line: 1, column: 1, path: 'target', message: 'target: unknown field; did you mean "targets"?' }],
  },
  {
    name: 'wrong type',
    files: { 'a.yaml': 'targets:\n  - id: T1\n    fail_fast: "yes"\n    labels: prod\n' },
    expected: [
      { subject: 'target T1', file: 'a.yaml', line: 3, column: 16, path: 'targets[0].fail_fast', message: 'target T1: fail_fast must be true or false (got a string)' },
      { subject: 'target T1', file: 'a.yaml', line: 4, column: 13, path: 'targets[0].labels', message: 'target T1: labels must be a list (got a string)' },
    ],
  },
  {
    // Targets and agents may leave out the id (their natural key identifies them); assets may not.
    name: 'missing id',
    files: { 'a.yaml': 'assets:\n  - id: A1\n  - name: a.example.com\n' },
    expected: [{ subject: 'assets[1]', file: 'a.yaml', line: 3, column: 5, path: 'assets[1]', message: 'assets[1]: missing required field "id"' }],
  },
  {
    name: 'the same id in two files, both places named',
    files: {
      'a.yaml': 'agents:\n  - id: G1\n    name: one\n',
      'b.yaml': '# another team\nagents:\n  - name: two\n    id: G1\n',
    },
    expected: [
      { file: 'a.yaml', line: 2, column: 9, path: 'agents[0].id', message: 'agent G1 is declared twice: here and at b.yaml:4' },
      { file: 'b.yaml', line: 4, column: 9, path: 'agents[0].id', message: 'agent G1 is declared twice: here and at a.yaml:2' },
    ],
  },
  {
    name: 'the same id twice in one file',
    files: { 'a.yaml': 'targets:\n  - id: T1\n  - id: T2\n  - id: T1\n' },
    expected: [
      { file: 'a.yaml', line: 2, column: 9, path: 'targets[0].id', message: 'target T1 is declared twice: here and at a.yaml:4' },
      { file: 'a.yaml', line: 4, column: 9, path: 'targets[2].id', message: 'target T1 is declared twice: here and at a.yaml:2' },
    ],
  },
  {
    name: 'an unset ${VAR}, named, and nothing else said about the empty value',
    files: { 'a.yaml': 'agents:\n  - id: G1\n    name: ${AGENT_NAME}\n' },
    expected: [
      {
        subject: 'agent G1', file: 'a.yaml', line: 3, column: 11, path: 'agents[0].name',
        message: 'agent G1: name: environment variable AGENT_NAME is not set (referenced here; set it, or write ${AGENT_NAME:-fallback})',
      },
    ],
  },
  {
    name: 'an empty file',
    files: { 'a.yaml': '' },
    expected: [{ file: 'a.yaml', line: 1, column: 1, path: '', message: 'the file is empty; expected a mapping with any of the lists targets, assets and agents' }],
  },
  {
    name: 'a file of comments only',
    files: { 'a.yaml': '# nothing yet\n\n' },
    expected: [{ file: 'a.yaml', line: 1, column: 1, path: '', message: 'the file is empty; expected a mapping with any of the lists targets, assets and agents' }],
  },
  {
    name: 'a top level that is a list',
    files: { 'a.yaml': '# targets\n- id: T1\n' },
    expected: [{ file: 'a.yaml', line: 2, column: 1, path: '', message: 'the top level is a list; expected a mapping with any of the lists targets, assets and agents' }],
  },
  {
    name: 'a top level that is a scalar',
    files: { 'a.yaml': 'targets\n' },
    expected: [{ file: 'a.yaml', line: 1, column: 1, path: '', message: 'the top level is a single value; expected a mapping with any of the lists targets, assets and agents' }],
  },
  {
    name: 'an alias bomb',
    files: { 'a.yaml': BOMB },
    expected: [{ file: 'a.yaml', line: 1, column: 1, path: '', message: /too many aliases/ }],
  },
  {
    name: 'a __proto__ key',
    files: { 'a.yaml': 'targets:\n  - id: T1\n    __proto__:\n      polluted: true\n    site:\n      __proto__: {name: x}\n' },
    expected: [
      { subject: 'target T1', file: 'a.yaml', line: 3, column: 5, path: 'targets[0].__proto__', message: /^target T1: __proto__: unknown field/ },
      { subject: 'target T1', file: 'a.yaml', line: 6, column: 7, path: 'targets[0].site.__proto__', message: /^target T1: site.__proto__: unknown field/ },
    ],
  },
  {
    name: 'a file that is not valid UTF-8',
    files: { 'a.yaml': Buffer.concat([Buffer.from('agents:\n  - id: G1\n    name: caf'), Buffer.from([0xe9]), Buffer.from('\n')]) },
    expected: [{ file: 'a.yaml', line: 3, column: 14, path: '', message: 'the file is not valid UTF-8 text' }],
  },
  {
    name: 'a directory with no YAML at all',
    files: { 'README.md': '# config\n', '.git/config.yaml': 'x: 1\n', 'node_modules/x/a.yml': 'x: 1\n' },
    expected: [{ file: '.', line: 1, column: 1, path: '', message: 'no configuration files (*.yaml, *.yml) found in .' }],
  },
  {
    name: 'a PATH that does not exist',
    files: { 'a.yaml': 'agents: []\n' },
    paths: ['missing'],
    expected: [{ file: 'missing', line: 1, column: 1, path: '', message: 'no such file or directory' }],
  },
]

/**
 * One case of each family of error, run through the real executable (node bin/run.js): YAML
 * syntax, the schema, an id declared twice, variables, what a file holds, bytes, paths, hostile
 * input. The other cases differ from these only in what the loader finds, checked in-process.
 */
export const FAMILIES = [
  'YAML syntax error: an unclosed quote, reported where it opens',
  'unknown key, with a suggestion',
  'the same id in two files, both places named',
  'an unset ${VAR}, named, and nothing else said about the empty value',
  'a top level that is a list',
  'a file that is not valid UTF-8',
  'a PATH that does not exist',
  'an alias bomb',
]

const STACK_TRACE = /^\s+at .+[:(]\d+|Error: .*\n\s+at |node:internal/m

/** What `scansync validate` gives for a bad input: exit 1, nothing on stdout, FILE:LINE:COLUMN: message lines, a count. */
export function expectValidateRefuses(input: BadInput, { code, stdout, stderr }: { code: number | null; stdout: string; stderr: string }): void {
  expect(stderr).not.toMatch(STACK_TRACE)
  expect(code).toBe(1)
  expect(stdout).toBe('')
  const lines = stderr.trimEnd().split('\n')
  const count = input.expected.length
  expect(lines.at(-1)).toBe(`${count} ${count === 1 ? 'error' : 'errors'}; nothing was sent.`)
  expect(lines.slice(0, -1)).toHaveLength(count)
  lines.slice(0, -1).forEach((line, i) => {
    const want = input.expected[i]
    const prefix = `${want.file}:${want.line}:${want.column}: `
    expect(line.startsWith(prefix), `${line} starts with ${prefix}`).toBe(true)
    const message = line.slice(prefix.length)
    if (typeof want.message === 'string') expect(message).toBe(want.message)
    else expect(message).toMatch(want.message)
  })
}
