// Declared identity, from the files alone: natural keys, what a target to create needs, and one
// key declared twice (both places named).
import { afterEach, describe, expect, it } from 'vitest'
import { removeTestdirs, load } from '../config/helpers.js'
import { checkDeclared } from '../../src/plan/declared-checks.js'

afterEach(removeTestdirs)

const messages = (result: Awaited<ReturnType<typeof load>>) => result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column}: ${d.path}: ${d.message}`)

describe('natural keys of declared resources', () => {
  it('a target without id is keyed by site.url, an agent without id by name; the id is "" until resolved', async () => {
    const { config, diagnostics } = await load({
      'a.yaml': [
        'targets:',
        '  - site: {name: Shop (new), url: "https://New.example.com"}',
        '  - id: T1',
        '    site: {url: https://old.example.com/}',
        'agents:',
        '  - name: dc-lisbon-agent',
        '    teams: [{name: Platform}, Tm1Zz9Yy8Xx7]',
        'assets:',
        '  - id: A1',
        '    name: a.example.com',
        '',
      ].join('\n'),
    })
    expect(diagnostics).toEqual([])
    const [created, pinned, agent] = config.resources.filter((r) => r.kind !== 'asset')
    expect(created).toMatchObject({ kind: 'target', id: '', naturalKey: { field: 'site.url', value: 'https://New.example.com' } })
    expect(created.source.line).toBe(2)
    expect(pinned).toMatchObject({ id: 'T1' })
    expect(pinned).not.toHaveProperty('naturalKey')
    expect(agent).toMatchObject({ kind: 'agent', id: '', naturalKey: { field: 'name', value: 'dc-lisbon-agent' } })
    // A reference by name stays as written (resolution replaces it); a bare string is an id.
    expect(agent.fields.teams).toEqual([{ name: 'Platform' }, { id: 'Tm1Zz9Yy8Xx7' }])
  })

  it('scanning_agent: a bare string is {id}, {name} stays a reference, null detaches', async () => {
    const { config, diagnostics } = await load({
      'a.yaml': [
        'targets:',
        '  - {id: T1, scanning_agent: 3kLx8Qy7Pb2m}',
        '  - {id: T2, scanning_agent: {name: dc-lisbon-agent}}',
        '  - {id: T3, scanning_agent: null}',
        '  - {id: T4, scanning_agent: {id: 3kLx8Qy7Pb2m}}',
        '',
      ].join('\n'),
    })
    expect(diagnostics).toEqual([])
    expect(config.resources.map((r) => r.fields.scanning_agent)).toEqual([{ id: '3kLx8Qy7Pb2m' }, { name: 'dc-lisbon-agent' }, null, { id: '3kLx8Qy7Pb2m' }])
  })

  it('a reference with both id and name, or neither, is refused by the schema', async () => {
    const { diagnostics } = await load({ 'a.yaml': 'agents:\n  - id: G1\n    teams: [{id: Tm1, name: Platform}, {}]\n' })
    expect(diagnostics.length).toBeGreaterThan(0)
    expect(diagnostics.every((d) => d.path.startsWith('agents[0].teams['))).toBe(true)
  })

  it('two named teams are no duplicate of each other (the keyed-list check looks at ids only)', async () => {
    const { config, diagnostics } = await load({ 'a.yaml': 'agents:\n  - id: G1\n    teams: [{name: Platform}, {name: Security}]\n' })
    expect(diagnostics).toEqual([])
    expect(checkDeclared(config.resources)).toEqual([])
  })
})

describe('a label has one colour in the account', () => {
  it('one label name declared with two colours (two targets, or a target and an asset) is an error at the later place; the same colour in any case is not', async () => {
    const { config, diagnostics } = await load({
      'a.yaml': [
        'targets:',
        '  - id: T1',
        '    labels: [{name: production, color: "#ff0000"}, {name: pci, color: "#ABC"}]',
        '  - id: T2',
        '    labels: [{name: production, color: "#00ff00"}]',
        'assets:',
        '  - id: A1',
        '    labels: [{name: pci, color: "#abc"}]',
        '    owners: [{name: production, color: "#0000ff"}]',
        '',
      ].join('\n'),
    })
    expect(diagnostics).toEqual([])
    expect(checkDeclared(config.resources).map((d) => `${d.file}:${d.line}: ${d.message}`)).toEqual([
      'a.yaml:5: target T2: labels[0]: the label "production" is declared with the colour "#00ff00" here and "#ff0000" at a.yaml:3; the service keeps one colour per label name, shown on every resource with it, so declare one colour (or none)',
    ])
  })
})

describe('what a resource without id must declare', () => {
  it('a target without id needs site.url, which identifies it (site.name only to be created: the live list tells): an error at its line', async () => {
    const result = await load({
      'a.yaml': ['targets:', '  - id: T1', '  - site: {url: https://new.example.com/}', '  - site: {name: Nameless}', '  - fail_fast: true', ''].join('\n'),
    })
    expect(messages(result)).toEqual([
      'a.yaml:4:5: targets[2]: targets[2]: a target without id needs site.url, which identifies it (and site.name too, to be created when no live target has that URL)',
      'a.yaml:5:5: targets[3]: targets[3]: a target without id needs site.url, which identifies it (and site.name too, to be created when no live target has that URL)',
    ])
  })

  it('an agent without id needs its name', async () => {
    const result = await load({ 'a.yaml': 'agents:\n  - teams: [Tm1]\n' })
    expect(messages(result)).toEqual([
      'a.yaml:2:5: agents[0]: agents[0]: an agent without id needs its name, which identifies it (agents are created by installing them, never by scansync)',
    ])
  })

  it('an asset still needs its id', async () => {
    const result = await load({ 'a.yaml': 'assets:\n  - name: a.example.com\n' })
    expect(messages(result)).toEqual(['a.yaml:2:5: assets[0]: assets[0]: missing required field "id"'])
  })
})

describe('one key, one declaration', () => {
  it('two targets without id and the same URL (compared as plans compare URLs): both places named', async () => {
    const result = await load({
      'a.yaml': 'targets:\n  - site: {name: Shop, url: "https://shop.example.com"}\n',
      'b.yaml': '# the same shop again\ntargets:\n  - id: T9\n  - site:\n      name: Shop again\n      url: HTTPS://SHOP.example.com:443/\n',
    })
    expect(messages(result)).toEqual([
      'a.yaml:2:29: targets[0].site.url: target with site.url "https://shop.example.com" is declared twice without id: here and at b.yaml:6 (without id, the site.url is what identifies it); declare it once',
      'b.yaml:6:12: targets[1].site.url: target with site.url "HTTPS://SHOP.example.com:443/" is declared twice without id: here and at a.yaml:2 (without id, the site.url is what identifies it); declare it once',
    ])
  })

  it('two agents without id and the same name: both places named; names compare exactly', async () => {
    const result = await load({ 'a.yaml': 'agents:\n  - name: dc-porto\n  - name: DC-Porto\n  - name: dc-porto\n' })
    expect(messages(result)).toEqual([
      'a.yaml:2:11: agents[0].name: agent with name "dc-porto" is declared twice without id: here and at a.yaml:4 (without id, the name is what identifies it); declare it once',
      'a.yaml:4:11: agents[2].name: agent with name "dc-porto" is declared twice without id: here and at a.yaml:2 (without id, the name is what identifies it); declare it once',
    ])
  })

  it('a key declared without id and as the key field of a resource with an id: both places named', async () => {
    const result = await load({
      'a.yaml': 'targets:\n  - id: T1\n    site: {url: "https://shop.example.com/"}\n',
      'b.yaml': 'targets:\n  - site: {name: Shop, url: "https://shop.example.com"}\nagents:\n  - {id: G1, name: dc-porto}\n  - {name: dc-porto}\n',
    })
    expect(messages(result)).toEqual([
      'a.yaml:3:17: targets[0].site.url: target T1: site.url "https://shop.example.com/" is also the site.url of the target declared without id at b.yaml:2; declare it once (keep the id)',
      'b.yaml:2:29: targets[0].site.url: target with site.url "https://shop.example.com" is declared here without id and at a.yaml:3 as target T1 with the same site.url: one target would be declared twice, or two would share the site.url; declare it once (keep the id)',
      'b.yaml:4:20: agents[0].name: agent G1: name "dc-porto" is also the name of the agent declared without id at b.yaml:5; declare it once (keep the id)',
      'b.yaml:5:12: agents[1].name: agent with name "dc-porto" is declared here without id and at b.yaml:4 as agent G1 with the same name: one agent would be declared twice, or two would share the name; declare it once (keep the id)',
    ])
  })

  it('resources with ids and the same URL are left alone (the service allows it; ids tell them apart)', async () => {
    const result = await load({ 'a.yaml': 'targets:\n  - {id: T1, site: {url: "https://a.example.com/"}}\n  - {id: T2, site: {url: "https://a.example.com/"}}\n' })
    expect(result.diagnostics).toEqual([])
  })
})
