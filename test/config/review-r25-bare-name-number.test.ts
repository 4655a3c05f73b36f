// A label, owner or team written bare may be a name (an id for a team); YAML reads a bare 2024 or
// true as a number or a boolean. `{name: 2024}` was told to quote it, but the bare `labels: [2024]`
// (a year label) was only told it "must be a label name or a mapping {name, color}": it looked
// like a label name, and nothing said why it was not. Now the bare form gets the same hint.
import { afterAll, describe, expect, it } from 'vitest'
import { refusedFile, removeTestdirs, runCli, testdir } from './helpers.js'

afterAll(removeTestdirs)

const validate = async (text: string) => (await refusedFile(text)).lines

describe.concurrent('a bare label, owner or team that YAML reads as a number or a boolean', () => {
  it('labels and owners: told to quote it, as written', async () => {
    const lines = await validate('assets:\n  - id: 4TrEwQ9aSdFg\n    owners: [2024]\n    labels: [1.50, q3]\n')
    expect(lines).toEqual([
      'a.yaml:3:14: asset 4TrEwQ9aSdFg: owners[0] must be a label name or a mapping {name, color} (got an integer; quote it: "2024")',
      'a.yaml:4:14: asset 4TrEwQ9aSdFg: labels[0] must be a label name or a mapping {name, color} (got a number; quote it: "1.50")',
    ])
  })

  it('a target label and a team id', async () => {
    const lines = await validate('targets:\n  - id: 7QwErTy2UiOp\n    labels: [2024]\nagents:\n  - id: 6NbVcX4zLkJh\n    teams: [12345, true]\n')
    expect(lines).toEqual([
      'a.yaml:3:14: target 7QwErTy2UiOp: labels[0] must be a label name or a mapping {name, color} (got an integer; quote it: "2024")',
      'a.yaml:6:13: agent 6NbVcX4zLkJh: teams[0] must be a team id, a mapping {id} or a mapping {name} (got an integer; quote it: "12345")',
      'a.yaml:6:20: agent 6NbVcX4zLkJh: teams[1] must be a team id, a mapping {id} or a mapping {name} (got a boolean; quote it: "true")',
    ])
  })

  it('quoted, the same list is valid', async () => {
    const dir = testdir({ 'a.yaml': 'assets:\n  - id: 4TrEwQ9aSdFg\n    owners: ["2024"]\n    labels: ["1.50", q3]\n' })
    const { code, stdout } = await runCli(['validate', dir], { cwd: dir })
    expect(code).toBe(0)
    expect(stdout).toContain('Valid')
  })
})
