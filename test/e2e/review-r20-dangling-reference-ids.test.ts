// Review round 20 (a plan that catches a dangling id): a target referring to its scanning agent by
// an id the service does not have (`scanning_agent: ZZZZZZZZZZZZ`, or `{id: …}`), or an agent
// listing a team by an id no team has, passed `plan` (the change shown as if fine) and only
// `apply` failed, with the service's 400. A reference by name that matches nothing was already a
// problem at its line; a dangling id now is too, in plan, apply (nothing sent) and drift, in the
// text and github formats, without a read per resource.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import type { Emulator } from '../../src/emulator/index.js'
import { cli, emulator, tempdir } from './helpers.js'
import { startProxy } from './proxy.js'

beforeAll(ensureBuilt, 120_000)

const TARGET_SHORT = `targets:
  - id: 7QwErTy2UiOp
    scanning_agent: ZZZZZZZZZZZZ
`
const TARGET_OBJECT = `targets:
  - id: 7QwErTy2UiOp
    scanning_agent: {id: ZZZZZZZZZZZZ}
`
const AGENT_TEAM = `agents:
  - id: 6NbVcX4zLkJh
    teams: [Tm1Zz9Yy8Xx7, {id: TmNoSuchTeam}]
`

const written = (em: Emulator) => em.requests().filter((r) => r.method !== 'GET')

describe('a reference by an id the service does not have', () => {
  it.each([
    ['scanning_agent: ZZZZZZZZZZZZ', TARGET_SHORT, 'c.yaml:3:21: target 7QwErTy2UiOp: scanning_agent: no agent has the id "ZZZZZZZZZZZZ"'],
    ['scanning_agent: {id: ZZZZZZZZZZZZ}', TARGET_OBJECT, 'c.yaml:3:26: target 7QwErTy2UiOp: scanning_agent: no agent has the id "ZZZZZZZZZZZZ"'],
    ['teams: [{id: TmNoSuchTeam}]', AGENT_TEAM, 'c.yaml:3:32: agent 6NbVcX4zLkJh: teams[1]: no team has the id "TmNoSuchTeam"'],
    ['teams: [TmNoSuchTeam]', `agents:\n  - id: 6NbVcX4zLkJh\n    teams: [TmNoSuchTeam]\n`, 'c.yaml:3:13: agent 6NbVcX4zLkJh: teams[0]: no team has the id "TmNoSuchTeam"'],
  ])('%s is a problem at its line in plan, apply (nothing sent) and drift', async (_, config, expected) => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': config })
    for (const command of [['plan'], ['apply', '--auto-approve'], ['drift']]) {
      const run = await cli(em, dir, command)
      expect(run.code, `${command[0]}: ${run.stdout}${run.stderr}`).toBe(1)
      expect(run.stderr).toContain(expected)
      expect(run.stderr).toContain('1 error in the configuration; nothing was sent.')
      expect(run.stdout).not.toContain('->')
    }
    expect(written(em)).toEqual([])
  })

  it('is an annotation on the id in the github format', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': `${TARGET_SHORT}${AGENT_TEAM}` })
    for (const command of [['plan'], ['apply', '--auto-approve']]) {
      const run = await cli(em, dir, [...command, '--format', 'github'])
      expect(run.code, run.stderr).toBe(1)
      expect(run.stderr).toContain('::error file=c.yaml,line=3,col=21,title=scansync%3A invalid configuration::target 7QwErTy2UiOp: scanning_agent: no agent has the id "ZZZZZZZZZZZZ"')
      expect(run.stderr).toContain('::error file=c.yaml,line=6,col=32,title=scansync%3A invalid configuration::agent 6NbVcX4zLkJh: teams[1]: no team has the id "TmNoSuchTeam"')
      expect(run.stderr).toContain('2 errors in the configuration; nothing was sent.')
    }
    expect(written(em)).toEqual([])
  })

  it('offers the live id it is near', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': `targets:\n  - id: 7QwErTy2UiOp\n    scanning_agent: 3kLx8Qy7Pb2n\n` })
    const run = await cli(em, dir, ['plan'])
    expect(run.code, run.stderr).toBe(1)
    expect(run.stderr).toContain('target 7QwErTy2UiOp: scanning_agent: no agent has the id "3kLx8Qy7Pb2n"; did you mean "3kLx8Qy7Pb2m" (named "dc-lisbon-agent")?')
  })

  it('from a variable is (sensitive), with no id offered', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': `targets:\n  - id: 7QwErTy2UiOp\n    scanning_agent: \${AGENT_ID}\n` })
    const run = await cli(em, dir, ['plan'], { AGENT_ID: '3kLx8Qy7Pb2n' })
    expect(run.code, run.stderr).toBe(1)
    expect(run.stderr).toContain('c.yaml:3:21: target 7QwErTy2UiOp: scanning_agent: no agent has the id (sensitive)')
    expect(run.stdout + run.stderr).not.toContain('3kLx8Qy7Pb2n')
    expect(run.stdout + run.stderr).not.toContain('3kLx8Qy7Pb2m')
  })

  it('said once for a shared YAML block', async () => {
    const em = await emulator()
    const config = `targets:\n  - &t\n    id: 7QwErTy2UiOp\n    scanning_agent: ZZZZZZZZZZZZ\n  - <<: *t\n    id: 2DZkoZH8WMEM\n`
    const run = await cli(em, tempdir({ 'c.yaml': config }), ['plan'])
    expect(run.code, run.stderr).toBe(1)
    expect(run.stderr.match(/no agent has the id "ZZZZZZZZZZZZ"/g)).toHaveLength(1)
  })
})

describe('a reference by an id the service has', () => {
  it('plans and applies as before', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': `targets:\n  - id: 7QwErTy2UiOp\n    scanning_agent: {id: 3kLx8Qy7Pb2m}\nagents:\n  - id: 6NbVcX4zLkJh\n    teams: [Tm1Zz9Yy8Xx7]\n` })
    const plan = await cli(em, dir, ['plan'])
    expect(plan.code, plan.stderr).toBe(0)
    expect(plan.stdout).toContain('7QwErTy2UiOp')
    expect(plan.stdout).toContain('6NbVcX4zLkJh')
    const applied = await cli(em, dir, ['apply', '--auto-approve'])
    expect(applied.code, applied.stderr).toBe(0)
    expect(written(em).map((r) => `${r.method} ${r.path}`).sort()).toEqual(['PATCH /scanning-agents/6NbVcX4zLkJh/', 'PATCH /targets/7QwErTy2UiOp/'])
  })

  it('to agents the configuration does not declare: the agent list is read once, not once per target', async () => {
    const em = await emulator()
    const targets = ['2DZkoZH8WMEM', '5HnBvC3xZaQw', '7QwErTy2UiOp', '9XcVbN5mQwEr'].map((id, n) => `  - id: ${id}\n    scanning_agent: ${n % 2 ? '3kLx8Qy7Pb2m' : '2PqRsT6uVwXy'}\n`)
    const plan = await cli(em, tempdir({ 'c.yaml': `targets:\n${targets.join('')}` }), ['plan'])
    expect(plan.code, plan.stderr).toBe(0)
    expect(em.requests().filter((r) => r.path.startsWith('/scanning-agents/')).map((r) => `${r.path}?page=${r.query.page}`)).toEqual(['/scanning-agents/?page=1'])
  })

  it('on a service that lists no agents and no teams: planned as before (the apply is left to say)', async () => {
    const em = await emulator()
    const proxy = await startProxy(em.url, async (request, forward) =>
      request.method === 'GET' && (request.path === '/scanning-agents/' || request.path === '/teams/') ? { status: 405, body: '{"detail": "Method \\"GET\\" not allowed."}' } : forward(),
    )
    const plan = await cli(em, tempdir({ 'c.yaml': `${TARGET_SHORT}${AGENT_TEAM}` }), ['plan'], { SCANSYNC_API_URL: proxy.url })
    expect(plan.code, plan.stderr).toBe(0)
    expect(plan.stdout).toContain('ZZZZZZZZZZZZ')
  })

  it('to an agent the configuration declares is checked by that agent\'s own read: no agent list is read', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': `targets:\n  - id: 7QwErTy2UiOp\n    scanning_agent: 3kLx8Qy7Pb2m\nagents:\n  - id: 3kLx8Qy7Pb2m\n` })
    const plan = await cli(em, dir, ['plan'])
    expect(plan.code, plan.stderr).toBe(0)
    expect(em.requests().filter((r) => r.path === '/scanning-agents/')).toEqual([])
  })
})

describe('only what the apply sends is checked', () => {
  // A service whose team list shows a caller only some teams (here, not Platform, which agent
  // 3kLx8Qy7Pb2m is in): the id the agent holds already is the service's own.
  const partialTeams = async (em: Emulator) =>
    startProxy(em.url, async (request, forward) => {
      const answer = await forward()
      if (request.method !== 'GET' || request.path !== '/teams/') return answer
      const page = JSON.parse(answer.body) as { results: Array<{ id: string }>; count?: number }
      const results = page.results.filter((team) => team.id !== 'Tm8Kq2Xa9Lp3')
      return { ...answer, body: JSON.stringify({ ...page, results, count: results.length }) }
    })

  it('an id the live resource holds already, unlisted, is not refused; a new unknown one beside it is', async () => {
    const em = await emulator()
    const proxy = await partialTeams(em)
    const unchanged = await cli(em, tempdir({ 'c.yaml': 'agents:\n  - id: 3kLx8Qy7Pb2m\n    teams: [Tm8Kq2Xa9Lp3]\n' }), ['plan'], { SCANSYNC_API_URL: proxy.url })
    expect(unchanged.code, unchanged.stderr).toBe(0)
    expect(unchanged.stdout).toMatch(/^No changes\./m)
    const added = await cli(em, tempdir({ 'c.yaml': 'agents:\n  - id: 3kLx8Qy7Pb2m\n    teams: [Tm8Kq2Xa9Lp3, TmNOSUCHTEAM]\n' }), ['plan'], { SCANSYNC_API_URL: proxy.url })
    expect(added.code).toBe(1)
    expect(added.stderr).toContain('no team has the id "TmNOSUCHTEAM"')
    expect(added.stderr).not.toContain('no team has the id "Tm8Kq2Xa9Lp3"')
  })

  // Beside another mistake that stops the run before the plan (a name no agent has), only the
  // references the apply may send are said: not one the live resource (as a list read shows it)
  // holds already, as a run without that mistake passes it; those of a resource to create, all.
  it('beside a name no agent has, an id the live agent holds already is not said', async () => {
    const em = await emulator()
    const proxy = await partialTeams(em)
    const files = {
      'c.yaml': 'agents:\n  - id: 3kLx8Qy7Pb2m\n    teams: [Tm8Kq2Xa9Lp3]\ntargets:\n  - id: 2DZkoZH8WMEM\n    scanning_agent: {name: no-such-agent}\n',
    }
    const run = await cli(em, tempdir(files), ['plan'], { SCANSYNC_API_URL: proxy.url })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('no-such-agent')
    expect(run.stderr).not.toContain('no team has the id "Tm8Kq2Xa9Lp3"')
    expect(run.stderr).toMatch(/^1 error in the configuration/m)
  })

  it('beside a name no agent has, a new unknown team id of an agent to create is still said', async () => {
    const em = await emulator()
    const proxy = await partialTeams(em)
    const files = {
      'c.yaml': 'agents:\n  - name: brand-new-agent\n    teams: [TmNOSUCHTEAM]\ntargets:\n  - id: 2DZkoZH8WMEM\n    scanning_agent: {name: no-such-agent}\n',
    }
    const run = await cli(em, tempdir(files), ['plan'], { SCANSYNC_API_URL: proxy.url })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('no-such-agent')
    expect(run.stderr).toContain('no team has the id "TmNOSUCHTEAM"')
  })
})

// a dangling id (a scanning agent's id the service does not have) in a target that `--id` does not
// select refused `plan --id A` when that target is declared by its URL, or whenever `drift
// --unmanaged` was given, though the same target declared by id left `plan --id A` alone: whether
// the selection planned depended on how another resource is declared. The ids referred to are
// checked in the resources selected, as plan checks the rest of them; one selected still is refused
// at its line. The real CLI against the emulator.
describe('a dangling id in a resource the selection leaves out', () => {
  const SELECTION_SELECTED = '  - id: 7QwErTy2UiOp\n    fail_fast: true\n'
  const SELECTION_BY_URL = '  - site: {name: Promo, url: "https://promo.example.com/"}\n    scanning_agent: ZZZZZZZZZZZZ\n'
  const SELECTION_BY_ID = '  - id: 9XcVbN5mQwEr\n    scanning_agent: ZZZZZZZZZZZZ\n'

  it.each([
    ['declared by its URL, plan --id', SELECTION_BY_URL, ['plan', '--id', '7QwErTy2UiOp']],
    ['declared by id, plan --id', SELECTION_BY_ID, ['plan', '--id', '7QwErTy2UiOp']],
    ['declared by its URL, drift --unmanaged --id', SELECTION_BY_URL, ['drift', '--unmanaged', '--id', '7QwErTy2UiOp', '--kind', 'target']],
    ['declared by id, drift --unmanaged --id', SELECTION_BY_ID, ['drift', '--unmanaged', '--id', '7QwErTy2UiOp', '--kind', 'target']],
  ])('a dangling agent id in a target not selected (%s) leaves the selected one planned', async (_, other, args) => {
    const em = await emulator()
    const run = await cli(em, tempdir({ 'c.yaml': `targets:\n${SELECTION_SELECTED}${other}` }), args)
    expect(run.stderr).not.toContain('no agent has the id')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(args[0] === 'plan' ? /^No changes\. Plan: 0 to change, 1 unchanged\./m : /^No drift\./m)
  })

  it.each([
    ['plan --id', SELECTION_BY_URL, ['plan', '--id', '9XcVbN5mQwEr'], 'c.yaml:5:21: target "https://promo.example.com/": scanning_agent: no agent has the id "ZZZZZZZZZZZZ"'],
    ['drift --unmanaged --id', SELECTION_BY_ID, ['drift', '--unmanaged', '--id', '9XcVbN5mQwEr'], 'c.yaml:5:21: target 9XcVbN5mQwEr: scanning_agent: no agent has the id "ZZZZZZZZZZZZ"'],
  ])('the target selected (%s) is still refused at its line', async (_, other, args, expected) => {
    const em = await emulator()
    const run = await cli(em, tempdir({ 'c.yaml': `targets:\n${SELECTION_SELECTED}${other}` }), args)
    expect(run.code, run.stdout).toBe(1)
    expect(run.stderr).toContain(expected)
    expect(run.stderr).toContain('1 error in the configuration; nothing was sent.')
  })
})

// a target referring to an agent by an id the service does not have, that agents.yaml also declares
// by that id, was left unchecked when --kind target or --id left the agent out: the check counted
// on the agent's own read (a 404 saying it is gone), which the selection does not make. plan --kind
// target showed the change as fine and apply failed with the service's 400 ("Invalid pk"). An agent
// the run does not read is now looked for in the agent list. The real CLI against the emulator.
describe('an agent declared by id that the selection does not read', () => {
  const UNREAD_CONFIG = 'targets:\n  - id: 9XcVbN5mQwEr\n    scanning_agent: ZZZZZZZZZZZZ\nagents:\n  - id: ZZZZZZZZZZZZ\n    name: gone-agent\n'

  it.each([
    ['plan --kind target', ['plan', '--kind', 'target']],
    ['plan --id', ['plan', '--id', '9XcVbN5mQwEr']],
    ['apply --kind target', ['apply', '--auto-approve', '--kind', 'target']],
    ['drift --id', ['drift', '--id', '9XcVbN5mQwEr']],
  ])('%s: the agent id is a problem at its line, nothing sent', async (_, args) => {
    const em = await emulator()
    const run = await cli(em, tempdir({ 'c.yaml': UNREAD_CONFIG }), args)
    expect(run.code, run.stdout).toBe(1)
    expect(run.stderr).toContain('c.yaml:3:21: target 9XcVbN5mQwEr: scanning_agent: no agent has the id "ZZZZZZZZZZZZ"')
    expect(run.stderr).toContain('1 error in the configuration; nothing was sent.')
    expect(em.requests().filter((r) => r.method !== 'GET')).toEqual([])
  })

  it('the whole configuration: the agent read says it is gone, as before', async () => {
    const em = await emulator()
    const run = await cli(em, tempdir({ 'c.yaml': UNREAD_CONFIG }), ['plan'])
    expect(run.code, run.stdout).toBe(1)
    expect(run.stderr).toContain('c.yaml:5:9: agent ZZZZZZZZZZZZ not found')
    expect(run.stderr).not.toContain('no agent has the id')
  })

  it('an agent the selection keeps is read, not listed', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': 'targets:\n  - id: 7QwErTy2UiOp\n    scanning_agent: 3kLx8Qy7Pb2m\nagents:\n  - id: 3kLx8Qy7Pb2m\n' })
    const run = await cli(em, dir, ['plan', '--id', '7QwErTy2UiOp,3kLx8Qy7Pb2m'])
    expect(run.code, run.stderr).toBe(0)
    expect(em.requests().filter((r) => r.path === '/scanning-agents/')).toEqual([])
  })
})

// a configuration with both a dangling id (a target referring to an agent id the service lacks) and
// a declared resource the service no longer has (an agent declared by an id gone) printed the
// dangling id alone and "1 error in the configuration": the gone agent was said only on the next
// run, once the first was fixed. Both are mistakes at a YAML line, found by the same reads: they
// are now said together, counted together. The real CLI.
describe('a dangling id beside a resource gone', () => {
  const GONE_CONFIG = 'targets:\n  - id: 9XcVbN5mQwEr\n    scanning_agent: YYYYYYYYYYYY\nagents:\n  - id: ZZZZZZZZZZZZ\n    name: gone-agent\n'

  it.each([[['plan']], [['apply', '--auto-approve']]])('%j says the dangling id and the gone agent, two errors', async (args) => {
    const em = await emulator()
    const run = await cli(em, tempdir({ 'c.yaml': GONE_CONFIG }), args)
    expect(run.code, run.stdout).toBe(1)
    expect(run.stderr).toContain('c.yaml:3:21: target 9XcVbN5mQwEr: scanning_agent: no agent has the id "YYYYYYYYYYYY"')
    expect(run.stderr).toContain('c.yaml:5:9: agent ZZZZZZZZZZZZ not found: the service has no agent with this id')
    expect(run.stderr).toContain('To list the ids the service has, run: scansync import --kind agent --all')
    expect(run.stderr).toContain('2 errors in the configuration; nothing was sent.')
    expect(em.requests().filter((r) => r.method !== 'GET')).toEqual([])
  })

  it('drift says the dangling id alone (a gone resource is drift there)', async () => {
    const em = await emulator()
    const run = await cli(em, tempdir({ 'c.yaml': GONE_CONFIG }), ['drift'])
    expect(run.code, run.stdout).toBe(1)
    expect(run.stderr).toContain('no agent has the id "YYYYYYYYYYYY"')
    expect(run.stderr).not.toContain('ZZZZZZZZZZZZ not found')
    expect(run.stderr).toContain('1 error in the configuration; nothing was sent.')
  })
})
