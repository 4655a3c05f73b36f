// A team or scanning agent written as a mapping may be `{id}` or `{name}`. A slip in one of them
// (`teams: [{nme: Security}]`, a shared block `x-team: &team {nme: Security}` merged into each
// agent) was answered as if it had to be both: `missing required fields "id" and "name"`, then
// `nme: unknown field (known fields: id)` beside `did you mean "name"?`; `{name: 5}` was told it
// misses `id` and that `name` is an unknown field; `{id: …, name: …}` that each is unknown. Now
// only the form the YAML means is explained, or, when none is singled out, which forms are allowed.
import { afterAll, describe, expect, it } from 'vitest'
import { refusedFile, removeTestdirs } from './helpers.js'

afterAll(removeTestdirs)

const validate = async (text: string) => (await refusedFile(text)).lines

describe.concurrent('a team or agent reference written as a mapping, with a slip', () => {
  it('{nme: …} in a shared block merged into a team list: the {name} form explained, at the line where it is written', async () => {
    const lines = await validate('x-team: &team {nme: Security}\nagents:\n  - id: 6NbVcX4zLkJh\n    teams:\n      - <<: *team\n')
    expect(lines).toEqual(['a.yaml:5:9: agent 6NbVcX4zLkJh: teams[0]: missing required field "name"', 'a.yaml:1:16: agent 6NbVcX4zLkJh: teams[0].nme: unknown field; did you mean "name"?'].sort())
  })

  it('scanning_agent: {nme: …}: never told that id is required too', async () => {
    const lines = await validate('targets:\n  - id: 7QwErTy2UiOp\n    scanning_agent: {nme: dc-lisbon-agent}\n')
    expect(lines).toEqual(['a.yaml:3:5: target 7QwErTy2UiOp: scanning_agent: missing required field "name"', 'a.yaml:3:22: target 7QwErTy2UiOp: scanning_agent.nme: unknown field; did you mean "name"?'])
  })

  it('{name: 5}: only that the name must be a string', async () => {
    const lines = await validate('agents:\n  - id: 6NbVcX4zLkJh\n    teams: [{name: 5}]\n')
    expect(lines).toEqual(['a.yaml:3:20: agent 6NbVcX4zLkJh: teams[0].name must be a string (got an integer; quote it: "5")'])
  })

  it('{id: …, name: …} or {foo: …}: the forms allowed, once', async () => {
    const lines = await validate('agents:\n  - id: 6NbVcX4zLkJh\n    teams: [{id: Tm8Kq2Xa9Lp3, name: Platform}, {foo: 1}]\n')
    expect(lines).toEqual([
      'a.yaml:3:13: agent 6NbVcX4zLkJh: teams[0] must be a team id, a mapping {id} or a mapping {name}',
      'a.yaml:3:49: agent 6NbVcX4zLkJh: teams[1] must be a team id, a mapping {id} or a mapping {name}',
    ])
  })

  it('a label mapping with a slip is explained as before', async () => {
    const lines = await validate('targets:\n  - id: 7QwErTy2UiOp\n    labels: [{nme: x}]\n')
    expect(lines).toEqual(['a.yaml:3:14: target 7QwErTy2UiOp: labels[0]: missing required field "name"', 'a.yaml:3:15: target 7QwErTy2UiOp: labels[0].nme: unknown field; did you mean "name"?'])
  })
})
