// The pure parts of onboarding around resolution: a creation's plan entry (one line per declared
// field, secrets masked, a reference whole), names printed for ids, import's references by name,
// and the unmanaged block of each format (the summary line stays last).
import { describe, expect, it } from 'vitest'
import { loadFile } from '../../src/config/load.js'
import { identifyDeclared } from '../../src/config/identity-checks.js'
import type { DesiredResource } from '../../src/core/types.js'
import { withNames } from '../../src/import/names.js'
import { assembleWithCreations, creationFields } from '../../src/plan/create.js'
import { showNames } from '../../src/plan/names.js'
import type { Plan } from '../../src/plan/model.js'
import { renderPlan } from '../../src/render/index.js'
import { NameIndex } from '../../src/resources/identity.js'

function declared(yaml: string, env: Record<string, string> = {}): DesiredResource[] {
  const { resources, diagnostics } = loadFile('c.yaml', Buffer.from(yaml), env)
  diagnostics.push(...identifyDeclared(resources))
  if (diagnostics.length > 0) throw new Error(diagnostics.map((d) => d.message).join('\n'))
  return resources
}

const TEAMS = new NameIndex([
  { id: 'Tm8Kq2Xa9Lp3', name: 'Platform' },
  { id: 'Tm1Zz9Yy8Xx7', name: 'Security' },
])
const AGENTS = new NameIndex([{ id: '3kLx8Qy7Pb2m', name: 'dc-lisbon-agent' }, { id: 'TwinA', name: 'twin' }, { id: 'TwinB', name: 'twin' }])

describe('a creation in the plan', () => {
  const [target] = declared(
    'targets:\n  - site:\n      name: Shop (new)\n      url: https://new.example.com/\n      basic_auth: {username: scanner, password: "${PW}", password_is_sensitive: true}\n    labels: [production]\n    scanning_agent: {id: 3kLx8Qy7Pb2m}\n',
    { PW: 'creation-Secret-1' },
  )

  it('shows every declared field once, objects by member, a reference whole, a secret as (sensitive), at its line', () => {
    const fields = creationFields(target)
    expect(fields.map((f) => [f.path, f.before, f.after, f.sensitive, f.source?.line])).toEqual([
      ['site.name', undefined, 'Shop (new)', false, 3],
      ['site.url', undefined, 'https://new.example.com/', false, 4],
      ['site.basic_auth.username', undefined, 'scanner', false, 5],
      ['site.basic_auth.password', '(sensitive)', '(sensitive)', true, 5],
      ['site.basic_auth.password_is_sensitive', undefined, true, false, 5],
      ['labels', undefined, [{ name: 'production' }], false, 6],
      ['scanning_agent', undefined, { id: '3kLx8Qy7Pb2m' }, false, 7],
    ])
    expect(JSON.stringify(fields)).not.toContain('creation-Secret-1')
  })

  it('comes first, counted apart: summary.create, change counts updates only; the text prints names', () => {
    const { plan, changed } = assembleWithCreations(3, [], [target])
    expect(plan.summary).toEqual({ create: 1, change: 0, unchanged: 2 })
    expect(plan.changes[0]).toMatchObject({ kind: 'target', id: '', action: 'create', method: 'POST', path: '/targets/', naturalKey: { value: 'https://new.example.com/' } })
    expect(changed).toHaveLength(1)
    const text = renderPlan(showNames(plan, { team: TEAMS, agent: AGENTS }), 'text')
    expect(text).toContain('+ target "Shop (new)" (https://new.example.com/)\n    site.name: (none) -> "Shop (new)"')
    expect(text).toContain('    scanning_agent: (none) -> dc-lisbon-agent\n')
    expect(text.trimEnd().split('\n').at(-1)).toBe('Plan: 1 to create, 0 to change, 2 unchanged.')
    const json = JSON.parse(renderPlan(plan, 'json'))
    expect(json.changes[0]).toMatchObject({ id: null, action: 'create', method: 'POST', path: '/targets/' })
    expect(json.summary).toEqual({ create: 1, change: 0, unchanged: 2 })
  })
})

describe('names for ids', () => {
  const plan = (): Plan => ({
    changes: [
      { kind: 'agent', id: 'A1', name: 'a', action: 'update', method: 'PATCH', path: '/scanning-agents/A1/', fields: [{ path: 'teams', before: ['Tm8Kq2Xa9Lp3'], after: ['Tm8Kq2Xa9Lp3', 'Tm1Zz9Yy8Xx7', 'TmUnknown999'], sensitive: false, set: true }] },
      { kind: 'target', id: 'T1', name: 't', action: 'update', method: 'PATCH', path: '/targets/T1/', fields: [{ path: 'scanning_agent', before: null, after: { id: '3kLx8Qy7Pb2m' }, sensitive: false }] },
    ],
    summary: { change: 2, unchanged: 0 },
  })

  it('teams and scanning_agent print names, an id where no name is known; the JSON keeps the ids', () => {
    const named = showNames(plan(), { team: TEAMS, agent: AGENTS })
    const text = renderPlan(named, 'text')
    expect(text).toContain('    teams: [Platform] -> [Platform, Security, TmUnknown999]\n')
    expect(text).toContain('    scanning_agent: null -> dc-lisbon-agent\n')
    expect(JSON.parse(renderPlan(named, 'json')).changes.find((c: { kind: string }) => c.kind === 'agent').fields[0].after).toEqual(['Tm8Kq2Xa9Lp3', 'Tm1Zz9Yy8Xx7', 'TmUnknown999'])
  })

  it('without names known, values print as before', () => {
    const text = renderPlan(showNames(plan(), { team: new NameIndex(), agent: new NameIndex() }), 'text')
    expect(text).toContain('scanning_agent: null -> {id: "3kLx8Qy7Pb2m"}')
  })
})

describe('import by name', () => {
  it('a unique name replaces the id; a shared or unknown one keeps it', () => {
    expect(withNames('agent', { name: 'a', teams: ['Tm8Kq2Xa9Lp3', { id: 'TmUnknown999' }] }, { team: TEAMS })).toEqual({ name: 'a', teams: [{ name: 'Platform' }, { id: 'TmUnknown999' }] })
    expect(withNames('target', { scanning_agent: { id: '3kLx8Qy7Pb2m' } }, { agent: AGENTS })).toEqual({ scanning_agent: { name: 'dc-lisbon-agent' } })
    expect(withNames('target', { scanning_agent: { id: 'TwinA' } }, { agent: AGENTS })).toEqual({ scanning_agent: { id: 'TwinA' } })
    expect(withNames('target', { scanning_agent: null }, { agent: AGENTS })).toEqual({ scanning_agent: null })
  })
})

describe('unmanaged in each format', () => {
  const plan: Plan = {
    changes: [],
    summary: { change: 0, unchanged: 2 },
    unmanaged: [
      { kind: 'target', id: 'T9', name: 'Promo' },
      { kind: 'agent', id: 'A9', name: null },
    ],
  }

  it('text: a block above the summary line, which stays last and counts them', () => {
    const text = renderPlan(plan, 'text', { mode: 'drift' })
    expect(text).toBe(
      'Live resources no file declares (review them, then declare or import them):\n? target T9 "Promo"\n? agent A9\n\n' +
        'No declared resource drifted. Drift: 0 resources differ from the configuration, 2 in sync, 2 not declared in any file.\n',
    )
  })

  it('json under "unmanaged"; github an error each; markdown a table', () => {
    expect(JSON.parse(renderPlan(plan, 'json', { mode: 'drift' })).unmanaged).toEqual([
      { kind: 'target', id: 'T9', name: 'Promo' },
      { kind: 'agent', id: 'A9', name: null },
    ])
    const github = renderPlan(plan, 'github', { mode: 'drift' })
    expect(github.split('\n').filter((l) => l.startsWith('::error'))).toHaveLength(2)
    expect(renderPlan(plan, 'markdown', { mode: 'drift' })).toContain('| ? | agent | <code>A9</code> |   |')
    // Without the flag nothing is added.
    expect(renderPlan({ ...plan, unmanaged: undefined }, 'text', { mode: 'drift' })).not.toContain('no file declares')
  })
})
