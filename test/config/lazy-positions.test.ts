import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config/load.js'
import { parseYamlFile, yamlDocuments } from '../../src/config/read-yaml.js'
import { buildPlan, liveKey } from '../../src/plan/build-plan.js'
import { emptyState, secretContext } from '../../src/secrets/state.js'
import { BAD_INPUTS } from './bad-inputs.js'
import { columnOf, lineOf, load, removeTestdirs, testdir } from './helpers.js'

// Counts the `yaml` Documents the loader builds: a valid file read by the fast path needs none
// until a position is asked for.
const parsed = () => yamlDocuments.parsed

afterAll(removeTestdirs)
beforeEach(() => {
  yamlDocuments.parsed = 0
})

const TARGETS = [
  'targets:',
  '  - id: T1',
  '    site: {name: Shop, url: "https://shop.example.com/"}',
  '    labels: [production, {name: pci, color: "#d93f0b"}]',
  '  - id: T2',
  '    site:',
  '      name: Portal',
  '      basic_auth: {username: scanner, password: "${PW:-demo}"}',
  '',
].join('\n')
const AGENTS = 'agents:\n  - id: G1\n    name: agent-1\n    teams: [Tm1]\n'

describe('positions are worked out only when asked for', () => {
  it('loading valid files parses no `yaml` Document', async () => {
    const { config, diagnostics } = await load({ 'targets.yaml': TARGETS, 'agents.yaml': AGENTS })
    expect(diagnostics).toEqual([])
    expect(config.resources.map((r) => r.id)).toEqual(['G1', 'T1', 'T2'])
    expect(parsed()).toBe(0)
  })

  it('a position inside a resource parses that resource alone, once; other resources and files stay unparsed', async () => {
    const { config } = await load({ 'targets.yaml': TARGETS, 'agents.yaml': AGENTS })
    const [, t1, t2] = config.resources
    expect(t2.locate(['site', 'basic_auth', 'password'])).toEqual({
      file: 'targets.yaml', line: lineOf(TARGETS, 'password'), column: columnOf(TARGETS, '"${PW'),
    })
    expect(t2.source).toEqual({ file: 'targets.yaml', line: 5, column: 5 })
    expect(parsed()).toBe(1)
    expect(t1.source).toEqual({ file: 'targets.yaml', line: 2, column: 5 })
    expect(t1.locate(['labels', 1, 'color'])).toEqual({ file: 'targets.yaml', line: 4, column: columnOf(TARGETS, '"#d93f0b"') })
    expect(t1.locate(['site', 'missing'])).toEqual({ file: 'targets.yaml', line: 3, column: columnOf(TARGETS, '{name: Shop') })
    expect(parsed()).toBe(2)
  })

  it('a position outside the resources parses the whole file, once', async () => {
    const { diagnostics } = await load({ 'a.yaml': '# a typo\ntarget:\n  - id: T1\n', 'agents.yaml': AGENTS })
    expect(diagnostics).toEqual([{ file: 'a.yaml', line: 2, column: 1, path: 'target', message: 'target: unknown field; did you mean "targets"?' }])
    expect(parsed()).toBe(1)
  })

  it('the source of a resource reads like a plain property: spread, JSON, assignment', async () => {
    // A block scalar: js-yaml reads the file (the block reader declines it), and the source is
    // worked out by `yaml` when first read.
    const folded = 'agents:\n  - id: G1\n    name: >-\n      agent-1\n'
    const { config } = await load({ 'agents.yaml': folded })
    const [agent] = config.resources
    expect(agent.fields.name).toBe('agent-1')
    expect(parsed()).toBe(0)
    expect({ ...agent }.source).toEqual({ file: 'agents.yaml', line: 2, column: 5 })
    expect(JSON.parse(JSON.stringify(agent)).source).toEqual({ file: 'agents.yaml', line: 2, column: 5 })
    expect(Object.keys(agent)).toEqual(['kind', 'id', 'fields', 'templates', 'source', 'locate'])
    agent.source = { file: 'elsewhere.yaml', line: 9, column: 9 }
    expect(agent.source).toEqual({ file: 'elsewhere.yaml', line: 9, column: 9 })
    expect(parsed()).toBe(1)
  })

  it('the source of a resource in plain block YAML is where the block reader found its item: plain data, no parse', async () => {
    const { config } = await load({ 'targets.yaml': TARGETS, 'agents.yaml': AGENTS })
    expect(config.resources.map((r) => Object.getOwnPropertyDescriptor(r.source, 'line'))).toEqual([
      { value: 2, writable: true, enumerable: true, configurable: true },
      { value: 2, writable: true, enumerable: true, configurable: true },
      { value: 5, writable: true, enumerable: true, configurable: true },
    ])
    expect(config.resources.map((r) => r.source)).toEqual([
      { file: 'agents.yaml', line: 2, column: 5 },
      { file: 'targets.yaml', line: 2, column: 5 },
      { file: 'targets.yaml', line: 5, column: 5 },
    ])
    expect(parsed()).toBe(0)
    // What `yaml` says, parsing the whole file.
    const precise = parseYamlFile('targets.yaml', Buffer.from(TARGETS), { fastPath: false }).parsed!
    expect([0, 1].map((i) => ({ ...precise.locate(['targets', i]) }))).toEqual(config.resources.slice(1).map((r) => r.source))
  })

  it('a position is handed out at once and found when first read', async () => {
    const { config } = await load({ 'targets.yaml': TARGETS })
    const position = config.resources[1].locate(['site', 'name'])
    expect(position.file).toBe('targets.yaml')
    expect(parsed()).toBe(0)
    expect(position.line).toBe(lineOf(TARGETS, 'Portal'))
    expect(position).toEqual({ file: 'targets.yaml', line: lineOf(TARGETS, 'Portal'), column: columnOf(TARGETS, 'Portal') })
    expect(parsed()).toBe(1)
  })

  it('a plan notes where each change is declared without parsing; the notes are exact when read', async () => {
    const { config } = await load({ 'targets.yaml': TARGETS, 'agents.yaml': AGENTS })
    const live = new Map([
      [liveKey('target', 'T1'), { id: 'T1', site: { name: 'Old shop', url: 'https://shop.example.com/' }, labels: [{ name: 'production' }, { name: 'pci', color: '#d93f0b' }] }],
      [liveKey('target', 'T2'), { id: 'T2', site: { name: 'Portal', basic_auth: { username: 'scanner', password: 'demo' } } }],
      [liveKey('agent', 'G1'), { id: 'G1', name: 'agent-1', teams: [{ id: 'Tm1' }] }],
    ])
    const { plan } = buildPlan(config.resources, live, secretContext(emptyState(), 'token'))
    expect(plan.changes.map((c) => [c.id, c.fields.map((f) => f.path)])).toEqual([['T1', ['site.name']]])
    expect(parsed()).toBe(0)
    expect(JSON.parse(JSON.stringify(plan.changes[0]))).toMatchObject({
      source: { file: 'targets.yaml', line: 2, column: 5 },
      fields: [{ path: 'site.name', source: { file: 'targets.yaml', line: 3, column: columnOf(TARGETS, 'Shop,') } }],
    })
    expect(parsed()).toBe(1)
  })

  it('a schema error asks for its position: the file is parsed, and the diagnostic is exact', async () => {
    const text = 'targets:\n  - id: T1\n    fail_fast: "yes"\n'
    const { diagnostics } = await load({ 'a.yaml': text, 'agents.yaml': AGENTS })
    expect(diagnostics).toEqual([
      { subject: 'target T1', file: 'a.yaml', line: 3, column: 16, path: 'targets[0].fail_fast', message: 'target T1: fail_fast must be true or false (got a string)' },
    ])
    expect(parsed()).toBe(1)
  })

  it('an id declared twice is located in both files, and only those', async () => {
    const { diagnostics } = await load({ 'a.yaml': AGENTS, 'b.yaml': AGENTS.replace('agent-1', 'agent-2'), 'c.yaml': TARGETS })
    expect(diagnostics.map((d) => `${d.file}:${d.line}:${d.column}`)).toEqual(['a.yaml:2:9', 'b.yaml:2:9'])
    expect(parsed()).toBe(2)
  })
})

describe('the precise path', () => {
  it('a file with anchors and aliases is parsed with `yaml` at once (the alias cap applies)', async () => {
    const text = 'agents:\n  - &a {id: G1, name: x}\n  - {id: G2, teams: [Tm1]}\n'
    const { config, diagnostics } = await load({ 'a.yaml': text })
    expect(diagnostics).toEqual([])
    expect(config.resources.map((r) => r.id)).toEqual(['G1', 'G2'])
    expect(parsed()).toBe(1)
    // Its positions come from that same Document.
    expect(config.resources[1].source).toEqual({ file: 'a.yaml', line: 3, column: 5 })
    expect(parsed()).toBe(1)
  })

  it('the alias bomb still fails fast with its message', async () => {
    const bomb = BAD_INPUTS.find((c) => c.name === 'an alias bomb')!
    const { diagnostics } = await loadConfig(['.'], { env: {}, cwd: testdir(bomb.files) })
    expect(diagnostics).toEqual([{ file: 'a.yaml', line: 1, column: 1, path: '', message: expect.stringMatching(/too many aliases/) }])
  })

  it('a syntax error is described by `yaml`, as before', async () => {
    const { diagnostics } = await load({ 'a.yaml': 'agents:\n  - id: G1\n    name: "dc-lisbon\n  - id: G2\n' })
    expect(diagnostics).toEqual([{ file: 'a.yaml', line: 3, column: 11, path: '', message: 'YAML: the quote " opened here is never closed' }])
  })
})
