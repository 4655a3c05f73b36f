// Resolution against the live lists: natural keys to ids or creations, references by name to
// ids, errors for unknown and ambiguous names, and the names plans print.
import { describe, expect, it } from 'vitest'
import { loadFile } from '../../src/config/load.js'
import { identifyDeclared } from '../../src/config/identity-checks.js'
import { formatDiagnostic } from '../../src/core/diagnostics.js'
import type { DesiredResource } from '../../src/core/types.js'
import { listsNeeded, NameIndex, resolveIdentities, targetsWithUrl, unmanaged, type LiveLists } from '../../src/resources/identity.js'

/** Declared resources through the real loader and the identity checks (which must pass). */
function declared(yaml: string, env: Record<string, string> = {}): DesiredResource[] {
  const { resources, diagnostics } = loadFile('c.yaml', Buffer.from(yaml), env)
  diagnostics.push(...identifyDeclared(resources))
  if (diagnostics.length > 0) throw new Error(diagnostics.map(formatDiagnostic).join('\n'))
  return resources
}

const LIVE: LiveLists = {
  targets: [
    { id: 'ShopTarget01', site: { name: 'Shop', url: 'https://shop.example.com/' } },
    { id: 'Blog1Target1', site: { name: 'Blog', url: 'https://blog.example.com/' } },
    { id: 'Blog2Target2', site: { name: 'Blog (copy)', url: 'HTTPS://BLOG.example.com:443' } },
  ],
  agents: [
    { id: '3kLx8Qy7Pb2m', name: 'dc-lisbon-agent', teams: [] },
    { id: '6NbVcX4zLkJh', name: 'dc-porto-agent' },
    { id: 'Twin1Agent11', name: 'twin' },
    { id: 'Twin2Agent22', name: 'twin' },
  ],
  teams: [
    { id: 'Tm8Kq2Xa9Lp3', name: 'Platform' },
    { id: 'Tm1Zz9Yy8Xx7', name: 'Security' },
    { id: 'TmOps1111111', name: 'Ops' },
    { id: 'TmOps2222222', name: 'Ops' },
  ],
}

const lines = (errors: { file: string; line: number; column: number; path: string; message: string }[]) => errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.path}: ${e.message}`)

describe('a target declared without id', () => {
  it('is the one live target with its URL (compared as plans compare URLs)', () => {
    const [target] = declared('targets:\n  - site: {name: Shop, url: "HTTPS://Shop.Example.com:443"}\n    fail_fast: false\n')
    const result = resolveIdentities([target], LIVE)
    expect(result.errors).toEqual([])
    expect(result.creations).toEqual([])
    expect(result.resources[0]).toMatchObject({ kind: 'target', id: 'ShopTarget01', naturalKey: { field: 'site.url' }, fields: { fail_fast: false } })
    // The declared resource itself is left as it was.
    expect(target.id).toBe('')
  })

  it('is created when no live target has its URL', () => {
    const resources = declared('targets:\n  - site: {name: Shop (new), url: "https://new.example.com/"}\n')
    const result = resolveIdentities(resources, LIVE)
    expect(result.errors).toEqual([])
    expect(result.creations).toHaveLength(1)
    expect(result.creations[0]).toBe(result.resources[0])
    expect(result.creations[0]).toMatchObject({ id: '', naturalKey: { field: 'site.url', value: 'https://new.example.com/' }, fields: { site: { name: 'Shop (new)' } } })
    // An account without targets: every target without id is created.
    expect(resolveIdentities(resources, {}).creations).toHaveLength(1)
  })

  it('is an error listing the ids when several live targets have its URL, at its site.url', () => {
    const result = resolveIdentities(declared('targets:\n  - site:\n      name: Blog\n      url: https://blog.example.com\n'), LIVE)
    expect(result.creations).toEqual([])
    expect(lines(result.errors)).toEqual([
      'c.yaml:4:12: site.url: target "https://blog.example.com": 2 live targets have this URL (Blog1Target1, Blog2Target2): write the id of the one you mean',
    ])
  })

  it('found by its URL while also declared by id: both places named', () => {
    const resources = declared('targets:\n  - id: ShopTarget01\n    fail_fast: true\n  - site: {name: Shop, url: "https://shop.example.com/"}\n')
    expect(lines(resolveIdentities(resources, LIVE).errors)).toEqual([
      'c.yaml:2:9: id: target ShopTarget01 is the live target ShopTarget01, also declared at c.yaml:4 (by its site.url): declare it once (keep the id)',
      'c.yaml:4:29: site.url: target "https://shop.example.com/" is the live target ShopTarget01, also declared at c.yaml:2: declare it once (keep the id)',
    ])
  })
})

describe('an agent declared without id', () => {
  it('is the one live agent with its name', () => {
    const result = resolveIdentities(declared('agents:\n  - name: dc-lisbon-agent\n    teams: [Tm8Kq2Xa9Lp3]\n'), LIVE)
    expect(result.errors).toEqual([])
    expect(result.resources[0]).toMatchObject({ kind: 'agent', id: '3kLx8Qy7Pb2m', fields: { name: 'dc-lisbon-agent', teams: [{ id: 'Tm8Kq2Xa9Lp3' }] } })
    expect(result.creations).toEqual([])
  })

  it('is never created: an unknown name is an error with the closest name, or the known ones', () => {
    const resources = declared('agents:\n  - name: dc-lisbon-agnet\n  - name: elsewhere-entirely\n')
    expect(lines(resolveIdentities(resources, LIVE).errors)).toEqual([
      'c.yaml:2:11: name: agent "dc-lisbon-agnet": no live agent has this name; did you mean "dc-lisbon-agent"?; agents are created by installing them, never by scansync',
      'c.yaml:3:11: name: agent "elsewhere-entirely": no live agent has this name (known: "dc-lisbon-agent", "dc-porto-agent", "twin"); agents are created by installing them, never by scansync',
    ])
    expect(lines(resolveIdentities(resources.slice(1), { agents: [] }).errors)).toEqual([
      'c.yaml:3:11: name: agent "elsewhere-entirely": no live agent has this name (there are none); agents are created by installing them, never by scansync',
    ])
    expect(resolveIdentities(resources, LIVE).creations).toEqual([])
  })

  it('is an error listing the ids when several live agents have its name', () => {
    expect(lines(resolveIdentities(declared('agents:\n  - name: twin\n'), LIVE).errors)).toEqual([
      'c.yaml:2:11: name: agent "twin": 2 live agents have this name (Twin1Agent11, Twin2Agent22): write the id of the one you mean',
    ])
  })

  it('found by its name while also declared by id: both places named', () => {
    const resources = declared('agents:\n  - {name: dc-porto-agent}\n  - {id: 6NbVcX4zLkJh, teams: []}\n')
    expect(lines(resolveIdentities(resources, LIVE).errors)).toEqual([
      'c.yaml:2:12: name: agent "dc-porto-agent" is the live agent 6NbVcX4zLkJh, also declared at c.yaml:3: declare it once (keep the id)',
      'c.yaml:3:10: id: agent 6NbVcX4zLkJh is the live agent 6NbVcX4zLkJh, also declared at c.yaml:2 (by its name): declare it once (keep the id)',
    ])
  })
})

describe('references by name', () => {
  it('teams by name become ids; ids stay; the names are kept for display', () => {
    const result = resolveIdentities(declared('agents:\n  - id: 3kLx8Qy7Pb2m\n    teams: [{name: Platform}, Tm1Zz9Yy8Xx7, {name: Security}]\n'), LIVE)
    expect(result.errors).toEqual([])
    expect(result.resources[0].fields.teams).toEqual([{ id: 'Tm8Kq2Xa9Lp3' }, { id: 'Tm1Zz9Yy8Xx7' }, { id: 'Tm1Zz9Yy8Xx7' }])
    expect(result.names.team.nameOf('Tm8Kq2Xa9Lp3')).toBe('Platform')
    expect(result.names.team.nameOf('TmUnknown')).toBeUndefined()
  })

  it('scanning_agent by name becomes {id}, on a target found by URL and on one to create', () => {
    const resources = declared([
      'targets:',
      '  - id: ShopTarget01',
      '    scanning_agent: {name: dc-lisbon-agent}',
      '  - site: {name: New, url: "https://new.example.com/"}',
      '    scanning_agent: {name: dc-porto-agent}',
      '  - id: Blog1Target1',
      '    scanning_agent: 6NbVcX4zLkJh',
      '  - id: Blog2Target2',
      '    scanning_agent: null',
      '',
    ].join('\n'))
    const result = resolveIdentities(resources, LIVE)
    expect(result.errors).toEqual([])
    expect(result.resources.map((r) => r.fields.scanning_agent)).toEqual([{ id: '3kLx8Qy7Pb2m' }, { id: '6NbVcX4zLkJh' }, { id: '6NbVcX4zLkJh' }, null])
    expect(result.creations.map((r) => r.fields.scanning_agent)).toEqual([{ id: '6NbVcX4zLkJh' }])
    // What needed nothing is the same object.
    expect(result.resources[2]).toBe(resources[2])
    expect(result.names.agent.nameOf('6NbVcX4zLkJh')).toBe('dc-porto-agent')
  })

  it('an unknown name is an error at its YAML line with the closest name; a name shared by two lists their ids', () => {
    const resources = declared([
      'agents:',
      '  - id: 3kLx8Qy7Pb2m',
      '    teams:',
      '      - name: Platfrom',
      '      - name: Ops',
      '      - name: Finance',
      'targets:',
      '  - id: ShopTarget01',
      '    scanning_agent: {name: twin}',
      '  - site: {name: New, url: "https://new.example.com/"}',
      '    scanning_agent: {name: dc-lisbon}',
      '',
    ].join('\n'))
    const result = resolveIdentities(resources, LIVE)
    expect(lines(result.errors)).toEqual([
      'c.yaml:9:28: scanning_agent.name: target ShopTarget01: scanning_agent.name: 2 agents are named "twin" (Twin1Agent11, Twin2Agent22): refer to the one you mean by its id',
      'c.yaml:11:28: scanning_agent.name: target "https://new.example.com/": scanning_agent.name: no agent is named "dc-lisbon" (known: "dc-lisbon-agent", "dc-porto-agent", "twin")',
      'c.yaml:4:15: teams[0].name: agent 3kLx8Qy7Pb2m: teams[0].name: no team is named "Platfrom"; did you mean "Platform"?',
      'c.yaml:5:15: teams[1].name: agent 3kLx8Qy7Pb2m: teams[1].name: 2 teams are named "Ops" (TmOps1111111, TmOps2222222): refer to the one you mean by its id',
      'c.yaml:6:15: teams[2].name: agent 3kLx8Qy7Pb2m: teams[2].name: no team is named "Finance" (known: "Ops", "Platform", "Security")',
    ])
    // A target with an error is not created.
    expect(result.creations).toEqual([])
  })

  it('a name that came from a variable keeps its template at the id it became (it stays a secret)', () => {
    const [agent] = declared('agents:\n  - id: 3kLx8Qy7Pb2m\n    teams: [{name: "${TEAM}"}]\n', { TEAM: 'Security' })
    expect(agent.templates).toEqual(new Map([['teams[0].name', '${TEAM}']]))
    const [resolved] = resolveIdentities([agent], LIVE).resources
    expect(resolved.fields.teams).toEqual([{ id: 'Tm1Zz9Yy8Xx7' }])
    expect(resolved.templates).toEqual(new Map([['teams[0].id', '${TEAM}']]))
  })
})

describe('what to read, names, URLs and what no file declares', () => {
  it('reads a list only when something refers into it', () => {
    const none = { targets: false, agents: false, teams: false, agentIds: false, teamIds: false, teamNames: false }
    // Ids referred to are checked against the lists: an agent declared by id is read anyway (no list
    // for it), one not declared is looked for in the agent list; teams are never declared.
    expect(listsNeeded(declared('targets:\n  - {id: T1, scanning_agent: A1}\nagents:\n  - {id: A1}\n'))).toEqual(none)
    expect(listsNeeded(declared('targets:\n  - {id: T1, scanning_agent: A1}\nagents:\n  - {id: G1, teams: [Tm1]}\n'))).toEqual({ ...none, agentIds: true, teamIds: true })
    expect(listsNeeded(declared('targets:\n  - site: {name: N, url: "https://n.example.com/"}\n'))).toEqual({ ...none, targets: true })
    expect(listsNeeded(declared('targets:\n  - {id: T1, scanning_agent: {name: a}}\n'))).toEqual({ ...none, agents: true })
    expect(listsNeeded(declared('targets:\n  - {id: T1, scanning_agent: null}\n'))).toEqual(none)
    expect(listsNeeded(declared('agents:\n  - {name: a}\n'))).toEqual({ ...none, agents: true })
    expect(listsNeeded(declared('agents:\n  - {id: G1, teams: [Tm1, {name: Platform}]}\n'))).toEqual({ ...none, teams: true, teamIds: true })
    // Teams emptied: the list only names those the agent leaves (one the service refuses is no error).
    expect(listsNeeded(declared('agents:\n  - {id: G1, teams: []}\n  - {id: G2, teams: null}\n'))).toEqual({ ...none, teamNames: true })
    // An agent --kind target leaves out of the selection is not read: the list checks the id.
    const configuration = declared('targets:\n  - {id: T1, scanning_agent: A1}\nagents:\n  - {id: A1}\n')
    expect(listsNeeded(configuration.filter((r) => r.kind === 'target'))).toEqual({ ...none, agentIds: true })
  })

  it('a name is unique or not; unnamed objects have none', () => {
    const index = new NameIndex([{ id: 'A', name: 'x' }, { id: 'B', name: 'x' }, { id: 'C', name: 'y' }, { id: 'D', name: '' }, { id: 'E' }, 'junk', null])
    expect(index.uniqueName('A')).toBeUndefined()
    expect(index.uniqueName('C')).toBe('y')
    expect(index.nameOf('A')).toBe('x')
    expect(index.nameOf('D')).toBeUndefined()
    expect(index.idsNamed('x')).toEqual(['A', 'B'])
    expect(index.idsNamed('z')).toEqual([])
  })

  it('finds live targets by URL (what apply looks up after a lost POST answer)', () => {
    expect(targetsWithUrl(LIVE.targets!, 'https://blog.example.com')).toEqual(['Blog1Target1', 'Blog2Target2'])
    expect(targetsWithUrl(LIVE.targets!, 'https://shop.example.com:443/')).toEqual(['ShopTarget01'])
    expect(targetsWithUrl(LIVE.targets!, 'https://nowhere.example.com/')).toEqual([])
    expect(targetsWithUrl([{ id: 'X', site: null }, { site: { url: 'https://shop.example.com/' } }], 'https://shop.example.com/')).toEqual([])
  })

  it('lists the live targets and agents no declared resource is, by id or by key, by kind then id', () => {
    const resources = declared('targets:\n  - site: {name: Shop, url: "https://shop.example.com"}\n  - {id: Blog2Target2}\nagents:\n  - {name: twin, id: Twin2Agent22}\n  - {name: dc-porto-agent}\n')
    const result = resolveIdentities(resources, LIVE)
    expect(result.errors).toEqual([])
    expect(unmanaged(result.resources, LIVE, result.names)).toEqual([
      { kind: 'target', id: 'Blog1Target1', name: 'Blog' },
      { kind: 'agent', id: '3kLx8Qy7Pb2m', name: 'dc-lisbon-agent' },
      { kind: 'agent', id: 'Twin1Agent11', name: 'twin' },
    ])
    expect(unmanaged([], { targets: [{ id: 'Z' }] }, result.names)).toEqual([{ kind: 'target', id: 'Z', name: null }])
  })
})
