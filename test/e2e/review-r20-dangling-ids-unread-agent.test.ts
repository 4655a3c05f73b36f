// Review round 20 (this round's ids, attacked): a target referring to an agent by an id the service
// does not have, that agents.yaml also declares by that id, was left unchecked when --kind target or
// --id left the agent out: the check counted on the agent's own read (a 404 saying it is gone), which
// the selection does not make. plan --kind target showed the change as fine and apply failed with the
// service's 400 ("Invalid pk"). An agent the run does not read is now looked for in the agent list.
// The real CLI against the emulator.
import { beforeAll, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const CONFIG = 'targets:\n  - id: 9XcVbN5mQwEr\n    scanning_agent: ZZZZZZZZZZZZ\nagents:\n  - id: ZZZZZZZZZZZZ\n    name: gone-agent\n'

it.each([
  ['plan --kind target', ['plan', '--kind', 'target']],
  ['plan --id', ['plan', '--id', '9XcVbN5mQwEr']],
  ['apply --kind target', ['apply', '--auto-approve', '--kind', 'target']],
  ['drift --id', ['drift', '--id', '9XcVbN5mQwEr']],
])('%s: the agent id is a problem at its line, nothing sent', async (_, args) => {
  const em = await emulator()
  const run = await cli(em, tempdir({ 'c.yaml': CONFIG }), args)
  expect(run.code, run.stdout).toBe(1)
  expect(run.stderr).toContain('c.yaml:3:21: target 9XcVbN5mQwEr: scanning_agent: no agent has the id "ZZZZZZZZZZZZ"')
  expect(run.stderr).toContain('1 error in the configuration; nothing was sent.')
  expect(em.requests().filter((r) => r.method !== 'GET')).toEqual([])
})

it('the whole configuration: the agent read says it is gone, as before', async () => {
  const em = await emulator()
  const run = await cli(em, tempdir({ 'c.yaml': CONFIG }), ['plan'])
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
