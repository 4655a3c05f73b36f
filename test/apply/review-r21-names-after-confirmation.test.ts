// Review round 21 (names after the confirmation): a reference by name (`scanning_agent: {name}`,
// `teams: [{name}]`) was turned into an id once, from the lists read before the confirmation (or
// before `plan --out` wrote the saved plan). An agent renamed, two agents swapping names, or a team
// deleted and another created with its name while the question was on the screen (or between
// `plan --out` and `apply --plan`): the apply sent the id the name meant when the plan was shown
// and said "applied". An apply whose request carries an id from a name now reads that list again
// after the confirmation and refuses, nothing sent, when the name means another id, none or
// several; an apply that sends no id from a name reads no list more.
import { describe, expect, it } from 'vitest'
import { runApply } from '../../src/cli/run/apply.js'
import { runPlan } from '../../src/cli/run/plan.js'
import type { Emulator, RecordedRequest } from '../../src/emulator/index.js'
import { captureIo, emulator, envFor, tempdir } from '../e2e/helpers.js'
import { startProxy } from '../e2e/proxy.js'
import { whenWaiting } from '../helpers/creation-lock.js'
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const LISBON = '3kLx8Qy7Pb2m'
const PORTO = '6NbVcX4zLkJh'
const TARGET = '7QwErTy2UiOp'
const PLATFORM = 'Tm8Kq2Xa9Lp3'

const TARGET_BY_NAME = `targets:
  - id: ${TARGET}
    scanning_agent: {name: dc-lisbon-agent}
`
const AGENT_TEAM_BY_NAME = `agents:
  - id: ${PORTO}
    teams: [{name: Platform}]
`

const writes = (em: Emulator): RecordedRequest[] => em.requests().filter((r) => r.method !== 'GET')
const listReads = (em: Emulator): string[] => em.requests().filter((r) => r.method === 'GET' && (r.path === '/scanning-agents/' || r.path === '/teams/')).map((r) => r.path)

/** `apply` asked on a terminal, `meanwhile` run when the question is answered (before the answer returns). */
async function applyConfirmed(em: Emulator, dir: string, meanwhile: () => void | Promise<void>, env: Record<string, string> = {}, url?: string) {
  const io = captureIo({ env: envFor(em, { ...env, ...(url ? { SCANSYNC_API_URL: url } : {}) }), cwd: dir, tty: true })
  io.prompt = async () => {
    await meanwhile()
    em.clearRequests()
    return 'yes'
  }
  const code = await runApply({ paths: ['.'], format: 'text', autoApprove: false }, io)
  return { code, out: io.out(), err: io.err() }
}

const AFTER_CONFIRMATION = 'changed on the service while the plan waited for confirmation; nothing was sent. Run scansync apply again to see the new plan.'

describe('a scanning agent named in the YAML, renamed while the apply waits for confirmation', () => {
  it('renamed away: refused, nothing sent, exit 1, naming the YAML line, the name, and what it meant then and now', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': TARGET_BY_NAME })
    const run = await applyConfirmed(em, dir, () => em.mutate('agent', LISBON, { name: 'dc-lisbon-old' }))
    expect(run.code, run.err).toBe(1)
    expect(run.err).toContain(`c.yaml:3: target ${TARGET}: scanning_agent.name: the agent named "dc-lisbon-agent" meant agent ${LISBON} when the plan was made, now no agent is named so`)
    expect(run.err).toContain(`what this name refers to ${AFTER_CONFIRMATION}`)
    expect(writes(em)).toEqual([])
    expect(run.out).not.toContain('applied')
  })

  it('two agents swapping names: refused, naming the agent the name means now', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': TARGET_BY_NAME })
    const run = await applyConfirmed(em, dir, () => {
      em.mutate('agent', LISBON, { name: 'swap' })
      em.mutate('agent', PORTO, { name: 'dc-lisbon-agent' })
      em.mutate('agent', LISBON, { name: 'dc-porto-agent' })
    })
    expect(run.code, run.err).toBe(1)
    expect(run.err).toContain(`scanning_agent.name: the agent named "dc-lisbon-agent" meant agent ${LISBON} when the plan was made, now agent ${PORTO}`)
    expect(run.err).toContain(AFTER_CONFIRMATION)
    expect(writes(em)).toEqual([])
  })

  it('another agent given the same name: refused, naming both', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': TARGET_BY_NAME })
    const run = await applyConfirmed(em, dir, () => em.mutate('agent', PORTO, { name: 'dc-lisbon-agent' }))
    expect(run.code, run.err).toBe(1)
    expect(run.err).toContain(`now 2 agents are named so (${LISBON}, ${PORTO})`)
    expect(writes(em)).toEqual([])
  })

  it('a name from a variable is (sensitive), and no id says which agent it names', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': `targets:\n  - id: ${TARGET}\n    scanning_agent: {name: "\${AGENT_NAME}"}\n` })
    const run = await applyConfirmed(em, dir, () => em.mutate('agent', LISBON, { name: 'dc-lisbon-old' }), { AGENT_NAME: 'dc-lisbon-agent' })
    expect(run.code, run.err).toBe(1)
    expect(run.err).toContain(`c.yaml:3: target ${TARGET}: scanning_agent.name: the agent named (sensitive) meant one agent when the plan was made, now no agent`)
    expect(run.err).toContain(AFTER_CONFIRMATION)
    expect(run.err).not.toContain('dc-lisbon-agent')
    expect(run.err).not.toContain(LISBON)
    expect(writes(em)).toEqual([])
  })

  it('still the same agent: applied as before, the list read once more after the confirmation', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': TARGET_BY_NAME })
    const run = await applyConfirmed(em, dir, () => em.mutate('agent', PORTO, { name: 'dc-porto-renamed' }))
    expect(run.code, run.err).toBe(0)
    expect(run.err).not.toContain('nothing was sent')
    expect(writes(em).map((r) => `${r.method} ${r.path}`)).toEqual([`PATCH /targets/${TARGET}/`])
    expect(JSON.stringify(writes(em)[0]!.body)).toContain(LISBON)
    expect(listReads(em)).toEqual(['/scanning-agents/'])
  })
})

/** A proxy whose team list, once `changed` is set, is `edit`ed (the emulator has no team writes). */
async function teamsProxy(em: Emulator, edit: (teams: Array<{ id: string; name: string }>) => void) {
  const state = { changed: false }
  const proxy = await startProxy(em.url, async (request, forward) => {
    const answer = await forward()
    if (!state.changed || request.path !== '/teams/' || answer.status !== 200) return answer
    const page = JSON.parse(answer.body) as { results: Array<{ id: string; name: string }> }
    edit(page.results)
    return { ...answer, body: JSON.stringify(page) }
  })
  return { url: proxy.url, state }
}

describe('a team named in the YAML, changed while the apply waits for confirmation', () => {
  it('renamed: refused, nothing sent', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': AGENT_TEAM_BY_NAME })
    const proxy = await teamsProxy(em, (teams) => {
      for (const team of teams) if (team.id === PLATFORM) team.name = 'Platform (old)'
    })
    const run = await applyConfirmed(em, dir, () => void (proxy.state.changed = true), {}, proxy.url)
    expect(run.code, run.err).toBe(1)
    expect(run.err).toContain(`c.yaml:3: agent ${PORTO}: teams[0].name: the team named "Platform" meant team ${PLATFORM} when the plan was made, now no team is named so`)
    expect(run.err).toContain(`what this name refers to ${AFTER_CONFIRMATION}`)
    expect(writes(em)).toEqual([])
  })

  it('deleted, and another created with its name: refused, naming the new one', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': AGENT_TEAM_BY_NAME })
    const proxy = await teamsProxy(em, (teams) => {
      for (const team of teams) if (team.id === PLATFORM) team.id = 'TmNewPlatfrm'
    })
    const run = await applyConfirmed(em, dir, () => void (proxy.state.changed = true), {}, proxy.url)
    expect(run.code, run.err).toBe(1)
    expect(run.err).toContain(`the team named "Platform" meant team ${PLATFORM} when the plan was made, now team TmNewPlatfrm`)
    expect(writes(em)).toEqual([])
  })

  it('a team name in a field the apply does not send is not read again', async () => {
    const em = await emulator()
    // The agent already has Platform: only its name changes; its teams are not sent.
    const dir = tempdir({ 'c.yaml': `agents:\n  - id: ${LISBON}\n    name: dc-lisbon-renamed\n    teams: [{name: Platform}]\n` })
    const proxy = await teamsProxy(em, (teams) => {
      for (const team of teams) if (team.id === PLATFORM) team.name = 'Platform (old)'
    })
    const run = await applyConfirmed(em, dir, () => void (proxy.state.changed = true), {}, proxy.url)
    expect(run.code, run.err).toBe(0)
    expect(writes(em).map((r) => `${r.method} ${r.path}`)).toEqual([`PATCH /scanning-agents/${LISBON}/`])
    expect(listReads(em)).toEqual([])
  })
})

describe('an apply whose requests carry ids only', () => {
  it('reads no list after the confirmation', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': `targets:\n  - id: ${TARGET}\n    scanning_agent: ${LISBON}\nagents:\n  - id: ${PORTO}\n    teams: [${PLATFORM}]\n` })
    const run = await applyConfirmed(em, dir, () => undefined)
    expect(run.code, run.err).toBe(0)
    expect(writes(em).map((r) => `${r.method} ${r.path}`).sort()).toEqual([`PATCH /scanning-agents/${PORTO}/`, `PATCH /targets/${TARGET}/`])
    expect(listReads(em)).toEqual([])
  })
})

describe('a saved plan whose names changed meaning after plan --out', () => {
  async function planOut(em: Emulator, dir: string, ids?: string[]) {
    const io = captureIo({ env: envFor(em), cwd: dir })
    const code = await runPlan({ mode: 'plan', paths: ['.'], format: 'text', out: 'p.json', ...(ids ? { ids } : {}) }, io)
    expect(code, io.err()).toBe(0)
  }
  async function applySaved(em: Emulator, dir: string) {
    const io = captureIo({ env: envFor(em), cwd: dir })
    const code = await runApply({ paths: [], plan: 'p.json', format: 'text', autoApprove: true }, io)
    return { code, out: io.out(), err: io.err() }
  }

  it('an agent renamed: the saved plan is stale, nothing sent', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': TARGET_BY_NAME })
    await planOut(em, dir)
    em.mutate('agent', LISBON, { name: 'dc-lisbon-old' })
    em.clearRequests()
    const run = await applySaved(em, dir)
    expect(run.code, run.err).toBe(1)
    expect(run.err).toContain(`target ${TARGET}: scanning_agent.name: the agent named "dc-lisbon-agent" meant agent ${LISBON} when the plan was made, now no agent is named so`)
    expect(run.err).toContain('the saved plan is stale: what this name refers to changed on the service since it was made; nothing was sent. Run scansync plan --out again.')
    expect(writes(em)).toEqual([])
  })

  it('names that mean the same: applied as saved', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': TARGET_BY_NAME })
    await planOut(em, dir)
    em.clearRequests()
    const run = await applySaved(em, dir)
    expect(run.code, run.err).toBe(0)
    expect(writes(em).map((r) => `${r.method} ${r.path}`)).toEqual([`PATCH /targets/${TARGET}/`])
    expect(listReads(em)).toEqual(['/scanning-agents/'])
  })

  it('an agent found by the name the configuration renames it to: applied as saved', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': `agents:\n  - id: ${LISBON}\n    name: dc-lisbon-new\ntargets:\n  - id: ${TARGET}\n    scanning_agent: {name: dc-lisbon-new}\n` })
    await planOut(em, dir)
    const run = await applySaved(em, dir)
    expect(run.code, run.err).toBe(0)
    expect((em.get('target', TARGET) as { scanning_agent: { id: string } }).scanning_agent.id).toBe(LISBON)
  })

  it('an agent found by the name the configuration renames it to, the renaming left out by --id: applied as saved', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': `agents:\n  - id: ${LISBON}\n    name: dc-lisbon-new\ntargets:\n  - id: ${TARGET}\n    scanning_agent: {name: dc-lisbon-new}\n` })
    await planOut(em, dir, [TARGET])
    em.clearRequests()
    const run = await applySaved(em, dir)
    expect(run.code, run.err).toBe(0)
    expect(writes(em).map((r) => `${r.method} ${r.path}`)).toEqual([`PATCH /targets/${TARGET}/`])
  })
})

describe('an apply that waited for another apply\'s creation lock', () => {
  it('a name renamed away during the wait: refused, nothing sent, the lock released', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': `targets:\n  - site: {name: New app, url: "https://newapp.example.com/"}\n    scanning_agent: {name: dc-lisbon-agent}\n` })
    mkdirSync(join(dir, '.scansync'), { recursive: true })
    const lock = join(dir, '.scansync', 'state.json.create.lock')
    writeFileSync(lock, 'another apply')
    let waited = false
    const io = whenWaiting(captureIo({ env: envFor(em), cwd: dir }), () => {
      waited = true
      em.mutate('agent', LISBON, { name: 'dc-lisbon-old' })
      rmSync(lock, { force: true })
    })
    em.clearRequests()
    const code = await runApply({ paths: ['.'], format: 'text', autoApprove: true }, io)
    expect(waited).toBe(true)
    expect(code, io.err()).toBe(1)
    expect(io.err()).toContain('target "https://newapp.example.com/": scanning_agent.name: the agent named "dc-lisbon-agent" meant agent 3kLx8Qy7Pb2m when the plan was made, now no agent is named so')
    expect(io.err()).toContain('what this name refers to changed on the service while this apply waited for another apply of the configuration, which was creating targets; nothing was sent. Run scansync apply again to see the new plan.')
    expect(writes(em)).toEqual([])
    expect(existsSync(lock)).toBe(false)
  })
})
