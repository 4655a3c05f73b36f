import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config/load.js'
import type { DesiredResource } from '../../src/core/types.js'
import { formatDiagnostic } from '../../src/core/diagnostics.js'
import { load, removeTestdirs, ROOT } from './helpers.js'

afterAll(removeTestdirs)

const byId = (resources: DesiredResource[], id: string): DesiredResource => {
  const found = resources.find((r) => r.id === id)
  if (!found) throw new Error(`no resource ${id}`)
  return found
}

describe('examples/config', () => {
  it('loads with no environment variables set', async () => {
    const { config, diagnostics } = await loadConfig([join(ROOT, 'examples', 'config')], { env: {}, cwd: ROOT })
    expect(diagnostics).toEqual([])
    expect(config.files).toEqual([
      'examples/config/agents.yaml',
      'examples/config/assets.yaml',
      'examples/config/targets/payments-api.yaml',
      'examples/config/targets/shop.yaml',
    ])
    const count = (kind: string) => config.resources.filter((r) => r.kind === kind).length
    expect([count('target'), count('asset'), count('agent')]).toEqual([3, 3, 2])

    const shop = byId(config.resources, '2DZkoZH8WMEM')
    expect(shop.fields.labels).toEqual([{ name: 'production' }, { name: 'pci', color: '#d93f0b' }])
    expect(shop.templates.get('site.basic_auth.password')).toBe('${SHOP_BASIC_AUTH_PASSWORD:-demo-basic-auth-password}')
    expect((shop.fields.site as { basic_auth: { password: string } }).basic_auth.password).toBe('demo-basic-auth-password')
    expect(shop.source).toEqual({ file: 'examples/config/targets/shop.yaml', line: 4, column: 5 })
    expect(shop.locate(['site', 'name'])).toEqual({ file: 'examples/config/targets/shop.yaml', line: 6, column: 13 })
    expect(byId(config.resources, '7QwErTy2UiOp').fields.scanning_agent).toBeNull()
  })
})

describe('shorthands', () => {
  it('a bare label is {name}, a bare team is {id}; the long forms stay as written', async () => {
    const { config, diagnostics } = await load({
      'a.yaml': [
        'targets:',
        '  - id: T1',
        '    labels: [prod, {name: pci, color: "#d93f0b"}]',
        'assets:',
        '  - id: A1',
        '    owners: [platform]',
        '    labels: [{name: ext}, public]',
        'agents:',
        '  - id: G1',
        '    teams: [Tm1, {id: Tm2}]',
        '',
      ].join('\n'),
    })
    expect(diagnostics).toEqual([])
    expect(byId(config.resources, 'T1').fields).toEqual({ labels: [{ name: 'prod' }, { name: 'pci', color: '#d93f0b' }] })
    expect(byId(config.resources, 'A1').fields).toEqual({ owners: [{ name: 'platform' }], labels: [{ name: 'ext' }, { name: 'public' }] })
    expect(byId(config.resources, 'G1').fields).toEqual({ teams: [{ id: 'Tm1' }, { id: 'Tm2' }] })
  })

  it('a bare label or team from a variable records its template at the expanded place', async () => {
    const { config, diagnostics } = await load(
      { 'a.yaml': 'targets:\n  - id: T1\n    labels: ["${ENV_LABEL}"]\nagents:\n  - id: G1\n    teams: ["${TEAM}"]\n' },
      { ENV_LABEL: 'prod', TEAM: 'Tm9' },
    )
    expect(diagnostics).toEqual([])
    const target = byId(config.resources, 'T1')
    expect(target.fields.labels).toEqual([{ name: 'prod' }])
    expect([...target.templates]).toEqual([['labels[0].name', '${ENV_LABEL}']])
    expect([...byId(config.resources, 'G1').templates]).toEqual([['teams[0].id', '${TEAM}']])
  })
})

describe('variables', () => {
  const agent = (name: string) => ({ 'a.yaml': `agents:\n  - id: G1\n    name: ${JSON.stringify(name)}\n` })
  const nameOf = async (name: string, env: Record<string, string> = {}) => {
    const { config, diagnostics } = await load(agent(name), env)
    expect(diagnostics).toEqual([])
    return { value: config.resources[0].fields.name, templates: [...config.resources[0].templates] }
  }

  it('${NAME} takes the variable, inside a longer string too', async () => {
    expect(await nameOf('agent-${SITE}-1', { SITE: 'lisbon' })).toEqual({ value: 'agent-lisbon-1', templates: [['name', 'agent-${SITE}-1']] })
  })

  it('${NAME:-fallback} takes the fallback when the variable is unset or empty, the variable otherwise', async () => {
    expect((await nameOf('${SITE:-porto}')).value).toBe('porto')
    expect((await nameOf('${SITE:-porto}', { SITE: '' })).value).toBe('porto')
    expect((await nameOf('${SITE:-porto}', { SITE: 'faro' })).value).toBe('faro')
  })

  it('a value from a fallback is sensitive all the same: it came from ${…}', async () => {
    expect((await nameOf('${SITE:-porto}')).templates).toEqual([['name', '${SITE:-porto}']])
  })

  it('$${ writes a literal ${, and is not a template', async () => {
    expect(await nameOf('cost $${PRICE} and ${X}', { X: 'x', PRICE: 'no' })).toEqual({
      value: 'cost ${PRICE} and x',
      templates: [['name', 'cost $${PRICE} and ${X}']],
    })
    expect(await nameOf('literal $${NAME}')).toEqual({ value: 'literal ${NAME}', templates: [] })
  })

  it('a lone $ or a $ before other text stays as written', async () => {
    expect(await nameOf('costs $5, $NAME, $ {X}')).toEqual({ value: 'costs $5, $NAME, $ {X}', templates: [] })
  })

  it('a malformed reference is an error naming it', async () => {
    const { diagnostics } = await load(agent('a ${1BAD} b'))
    expect(diagnostics).toEqual([
      {
        subject: 'agent G1', file: 'a.yaml', line: 3, column: 11, path: 'agents[0].name',
        message: 'agent G1: name: malformed variable reference "${1BAD}": write ${NAME} or ${NAME:-fallback}, or $${ for a literal ${',
      },
    ])
  })

  it('every unset variable is named, each at its place', async () => {
    const { diagnostics } = await load({
      'a.yaml': 'targets:\n  - id: T1\n    site:\n      name: ${A}\n      basic_auth: {username: u, password: "${B}${C:-c}"}\n',
    })
    expect(diagnostics.map((d) => `${d.line}:${d.column} ${d.path}: ${d.message}`)).toEqual([
      '4:13 targets[0].site.name: target T1: site.name: environment variable A is not set (referenced here; set it, or write ${A:-fallback})',
      '5:43 targets[0].site.basic_auth.password: target T1: site.basic_auth.password: environment variable B is not set (referenced here; set it, or write ${B:-fallback})',
    ])
  })

  it('a value from a variable is taken as it is, not resolved again', async () => {
    expect((await nameOf('${A}', { A: 'x-${B}-$${' })).value).toBe('x-${B}-$${')
  })

  it('a fallback holding another ${…} is an error, not a half-resolved value', async () => {
    const { diagnostics } = await load(agent('${A:-${B}}'))
    expect(diagnostics.map((d) => d.message)).toEqual(['agent G1: name: the fallback of ${A:-…} holds another ${…}; a fallback is plain text'])
  })

  it('variables are not resolved in keys or in non-string values', async () => {
    const { diagnostics } = await load({ 'a.yaml': 'agents:\n  - id: G1\n    ${KEY}: x\n' }, { KEY: 'name' })
    expect(diagnostics.map((d) => d.message)).toEqual([expect.stringMatching(/^agent G1: \$\{KEY\}: unknown field/)])
  })
})

describe('values from variables are never echoed', () => {
  const secret = 'hunter2 Secret!'
  it.each([
    ['an enum', 'targets:\n  - id: T1\n    report_type: ${V}\n', 'target T1: report_type must be one of: default, executive_summary, owasp, owasp_web_2021, owasp_web_2025, pci, pci_v3_2_1, pci4, pci_v4_0_1, iso27001, hipaa (got (sensitive))'],
    ['a pattern', 'targets:\n  - id: T1\n    labels: [{name: x, color: "${V}"}]\n', 'target T1: labels[0].color must be a colour name or #RRGGBB (letters, digits, #, _ and - only) (got (sensitive))'],
    ['a format', 'targets:\n  - id: T1\n    site: {url: "${V}"}\n', 'target T1: site.url must be an absolute URL such as https://example.com/ (got (sensitive))'],
    ['a time', 'targets:\n  - id: T1\n    blackout_period: {begin: "${V}", cease: "06:00", weekdays: [1]}\n', 'target T1: blackout_period.begin must be a time of day from 00:00 to 23:59, written HH:MM (got (sensitive))'],
    ['a length', 'agents:\n  - id: G1\n    name: "${V}${V}"\n', 'agent G1: name must be at most 255 characters (got 256)'],
  ])('%s', async (_, text, message) => {
    const value = _ === 'a length' ? secret.padEnd(128, 'x') : secret
    const { diagnostics } = await load({ 'a.yaml': text }, { V: value })
    expect(diagnostics.map((d) => d.message)).toEqual([message])
    expect(JSON.stringify(diagnostics)).not.toContain(secret)
  })

  it('a literal value in the same place is shown', async () => {
    const { diagnostics } = await load({ 'a.yaml': 'targets:\n  - id: T1\n    report_type: hunter\n' })
    expect(diagnostics[0].message).toMatch(/\(got "hunter"\)$/)
  })
})

describe('wrong types', () => {
  it('a number or boolean where a string is expected says to quote it', async () => {
    const { diagnostics } = await load({ 'a.yaml': 'agents:\n  - id: 12345\n    name: true\n' })
    expect(diagnostics.map((d) => `${d.line}:${d.column}: ${d.message}`)).toEqual([
      '2:9: agents[0]: id must be a string (got an integer; quote it: "12345")',
      '3:11: agents[0]: name must be a string (got a boolean; quote it: "true")',
    ])
  })

  it("the core schema's tags, `!` (a text) and the merge key's are read as YAML reads them", async () => {
    const { config, diagnostics } = await load({ 'a.yaml': 'x-a: &a {cease: "18:00"}\nagents:\n  - id: !!str 000123\n    name: ! 123\ntargets:\n  - id: T1\n    blackout_period: {!!merge <<: *a, begin: "08:00", weekdays: [1]}\n' })
    expect(diagnostics).toEqual([])
    expect(config.resources.map((r) => [r.id, r.fields])).toEqual([
      ["T1", { blackout_period: { cease: "18:00", begin: "08:00", weekdays: [1] } }],
      ['000123', { name: '123' }],
    ])
  })

  it('the text to quote is the one written, not the value read (following the advice keeps the id)', async () => {
    for (const extra of ['', 'x-a: &a 1\n']) {
      const { diagnostics } = await load({ 'a.yaml': `${extra}agents:\n  - id: 000123\n    name: 1.50\n  - id: 0x1F\n    name: {a: 1}\n  - id: 1e3\n    name: [1]\n` })
      expect(diagnostics.map((d) => d.message)).toEqual([
        'agents[0]: id must be a string (got an integer; quote it: "000123")',
        'agents[0]: name must be a string (got a number; quote it: "1.50")',
        'agents[1]: id must be a string (got an integer; quote it: "0x1F")',
        'agents[1]: name must be a string (got a mapping)',
        'agents[2]: id must be a string (got an integer; quote it: "1e3")',
        'agents[2]: name must be a string (got a list)',
      ])
    }
  })
})

describe('finding files', () => {
  it('reads *.yaml and *.yml recursively, skipping .hidden folders, node_modules and other files', async () => {
    const { config, diagnostics } = await load({
      'a.yaml': 'agents: [{id: G1}]\n',
      'teams/b.yml': 'agents: [{id: G2}]\n',
      'teams/deep/er/c.YAML': 'agents: [{id: G3}]\n',
      '.git/d.yaml': 'not: valid\n',
      '.scansync/e.yaml': 'not: valid\n',
      'node_modules/pkg/f.yaml': 'not: valid\n',
      'teams/node_modules/g.yaml': 'not: valid\n',
      'notes.txt': 'not: valid\n',
      'h.yaml.bak': 'not: valid\n',
      'i.json': '{"not": "valid"}\n',
    })
    expect(diagnostics).toEqual([])
    expect(config.files).toEqual(['a.yaml', 'teams/b.yml', 'teams/deep/er/c.YAML'])
    expect(config.resources.map((r) => r.id)).toEqual(['G1', 'G2', 'G3'])
  })

  it('takes files and folders as paths, each file once', async () => {
    const { config, diagnostics } = await load(
      { 'x/a.yaml': 'agents: [{id: G1}]\n', 'x/b.yaml': 'agents: [{id: G2}]\n', 'y/c.yaml': 'agents: [{id: G3}]\n' },
      {},
      ['x', 'x/a.yaml', 'y/c.yaml'],
    )
    expect(diagnostics).toEqual([])
    expect(config.files).toEqual(['x/a.yaml', 'x/b.yaml', 'y/c.yaml'])
  })

  it('an empty top-level list and a null one are fine', async () => {
    const { config, diagnostics } = await load({ 'a.yaml': 'targets: []\nassets:\nagents: [{id: G1}]\n' })
    expect(diagnostics).toEqual([])
    expect(config.resources).toHaveLength(1)
  })
})

describe('encodings and line ends', () => {
  it('a file with a byte order mark loads, and positions ignore the mark', async () => {
    const { config, diagnostics } = await load({ 'a.yaml': '\uFEFFagents:\n  - id: G1\n    name: dc\n' })
    expect(diagnostics).toEqual([])
    expect(config.resources[0].locate(['name'])).toEqual({ file: 'a.yaml', line: 3, column: 11 })
    const bad = await load({ 'a.yaml': '\uFEFFtarget: []\n' })
    expect(bad.diagnostics.map((d) => [d.line, d.column])).toEqual([[1, 1]])
  })

  it('a CRLF file loads without carriage returns in its values, and positions are right', async () => {
    const { config, diagnostics } = await load({ 'a.yaml': 'agents:\r\n  - id: G1\r\n    name: dc\r\n    teams: [a, b]\r\n' })
    expect(diagnostics).toEqual([])
    expect(config.resources[0].fields).toEqual({ name: 'dc', teams: [{ id: 'a' }, { id: 'b' }] })
    expect(config.resources[0].locate(['teams', 1])).toEqual({ file: 'a.yaml', line: 4, column: 16 })
    const bad = await load({ 'a.yaml': 'agents:\r\n  - id: G1\r\n    nme: dc\r\n' })
    expect(bad.diagnostics.map((d) => [d.line, d.column, d.message])).toEqual([[3, 5, 'agent G1: nme: unknown field; did you mean "name"?']])
  })

  it('a BOM and CRLF together', async () => {
    const { config, diagnostics } = await load({ 'a.yaml': '\uFEFFagents:\r\n  - id: G1\r\n' })
    expect(diagnostics).toEqual([])
    expect(config.resources.map((r) => r.id)).toEqual(['G1'])
  })
})

// A review of the twelfth round's release: a key holding a line break split its problem over two lines.
describe('one problem, one line', () => {
  it('a line break in a name the message quotes is written as an escape', async () => {
    const { diagnostics } = await load({ 'a.yaml': 'targets:\n  - id: 2DZkoZH8WMEM\n    site: {name: ok, "we\\nird": 1}\n' })
    const text = diagnostics.map(formatDiagnostic)
    expect(text).toHaveLength(1)
    expect(text[0]).toMatch(/^a\.yaml:3:\d+: .*site\.we\\nird: unknown field/)
    expect(text[0]).not.toContain('\n')
  })
})
