// Review round 20 (this round's ids, attacked): a dangling id (a scanning agent's id the service does
// not have) in a target that `--id` does not select refused `plan --id A` when that target is
// declared by its URL, or whenever `drift --unmanaged` was given, though the same target declared by
// id left `plan --id A` alone: whether the selection planned depended on how another resource is
// declared. The ids referred to are checked in the resources selected, as plan checks the rest of
// them; one selected still is refused at its line. The real CLI against the emulator.
import { beforeAll, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const SELECTED = '  - id: 7QwErTy2UiOp\n    fail_fast: true\n'
const BY_URL = '  - site: {name: Promo, url: "https://promo.example.com/"}\n    scanning_agent: ZZZZZZZZZZZZ\n'
const BY_ID = '  - id: 9XcVbN5mQwEr\n    scanning_agent: ZZZZZZZZZZZZ\n'

it.each([
  ['declared by its URL, plan --id', BY_URL, ['plan', '--id', '7QwErTy2UiOp']],
  ['declared by id, plan --id', BY_ID, ['plan', '--id', '7QwErTy2UiOp']],
  ['declared by its URL, drift --unmanaged --id', BY_URL, ['drift', '--unmanaged', '--id', '7QwErTy2UiOp', '--kind', 'target']],
  ['declared by id, drift --unmanaged --id', BY_ID, ['drift', '--unmanaged', '--id', '7QwErTy2UiOp', '--kind', 'target']],
])('a dangling agent id in a target not selected (%s) leaves the selected one planned', async (_, other, args) => {
  const em = await emulator()
  const run = await cli(em, tempdir({ 'c.yaml': `targets:\n${SELECTED}${other}` }), args)
  expect(run.stderr).not.toContain('no agent has the id')
  expect(run.code, run.stderr).toBe(0)
  expect(run.stdout).toMatch(args[0] === 'plan' ? /^No changes\. Plan: 0 to change, 1 unchanged\./m : /^No drift\./m)
})

it.each([
  ['plan --id', BY_URL, ['plan', '--id', '9XcVbN5mQwEr'], 'c.yaml:5:21: target "https://promo.example.com/": scanning_agent: no agent has the id "ZZZZZZZZZZZZ"'],
  ['drift --unmanaged --id', BY_ID, ['drift', '--unmanaged', '--id', '9XcVbN5mQwEr'], 'c.yaml:5:21: target 9XcVbN5mQwEr: scanning_agent: no agent has the id "ZZZZZZZZZZZZ"'],
])('the target selected (%s) is still refused at its line', async (_, other, args, expected) => {
  const em = await emulator()
  const run = await cli(em, tempdir({ 'c.yaml': `targets:\n${SELECTED}${other}` }), args)
  expect(run.code, run.stdout).toBe(1)
  expect(run.stderr).toContain(expected)
  expect(run.stderr).toContain('1 error in the configuration; nothing was sent.')
})
