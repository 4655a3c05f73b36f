// Review round 20 (this round's ids, attacked): a configuration with both a dangling id (a target
// referring to an agent id the service lacks) and a declared resource the service no longer has
// (an agent declared by an id gone) printed the dangling id alone and "1 error in the configuration":
// the gone agent was said only on the next run, once the first was fixed. Both are mistakes at a YAML
// line, found by the same reads: they are now said together, counted together. The real CLI.
import { beforeAll, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const CONFIG = 'targets:\n  - id: 9XcVbN5mQwEr\n    scanning_agent: YYYYYYYYYYYY\nagents:\n  - id: ZZZZZZZZZZZZ\n    name: gone-agent\n'

it.each([[['plan']], [['apply', '--auto-approve']]])('%j says the dangling id and the gone agent, two errors', async (args) => {
  const em = await emulator()
  const run = await cli(em, tempdir({ 'c.yaml': CONFIG }), args)
  expect(run.code, run.stdout).toBe(1)
  expect(run.stderr).toContain('c.yaml:3:21: target 9XcVbN5mQwEr: scanning_agent: no agent has the id "YYYYYYYYYYYY"')
  expect(run.stderr).toContain('c.yaml:5:9: agent ZZZZZZZZZZZZ not found: the service has no agent with this id')
  expect(run.stderr).toContain('To list the ids the service has, run: scansync import --kind agent --all')
  expect(run.stderr).toContain('2 errors in the configuration; nothing was sent.')
  expect(em.requests().filter((r) => r.method !== 'GET')).toEqual([])
})

it('drift says the dangling id alone (a gone resource is drift there)', async () => {
  const em = await emulator()
  const run = await cli(em, tempdir({ 'c.yaml': CONFIG }), ['drift'])
  expect(run.code, run.stdout).toBe(1)
  expect(run.stderr).toContain('no agent has the id "YYYYYYYYYYYY"')
  expect(run.stderr).not.toContain('ZZZZZZZZZZZZ not found')
  expect(run.stderr).toContain('1 error in the configuration; nothing was sent.')
})
