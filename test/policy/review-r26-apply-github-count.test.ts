// Review round 26 (one rule, four commands): `plan`, `drift` and `audit --format github` follow
// their annotations with a line counting the violations (GitHub shows ten annotations a level, so
// the log's line is the only total); `apply --format github`, refused by the same rule, printed
// the annotations alone. It now prints the same line, before refusing.
import { describe, expect, it } from 'vitest'
import { cli, sharedEmulator, tempdir, writes } from '../e2e/helpers.js'

const rule = (level: string) => `policies:
  - name: production-has-blackout
    description: Production targets pause scans in office hours
    kind: target
    when:
      properties: {labels: {contains: {properties: {name: {const: production}}, required: [name]}}}
      required: [labels]
    require:
      required: [blackout_period]
    level: ${level}
`
const target = `targets:\n  - id: 7QwErTy2UiOp\n    labels: [production]\n`
const em = sharedEmulator()

describe('apply --format github with policy violations', () => {
  it('counts them after the annotations, as plan does, and sends nothing on an error', async () => {
    const dir = tempdir({ 'targets.yaml': target, 'rules.yaml': rule('error') })
    const plan = await cli(em(), dir, ['plan', '--format', 'github'])
    const apply = await cli(em(), dir, ['apply', '--auto-approve', '--format', 'github'])
    expect(plan.stdout).toMatch(/^1 policy violation: 1 error, 0 warnings\.$/m)
    expect(apply.stdout).toMatch(/^::error file=targets\.yaml,line=2,col=5,title=scansync policy production-has-blackout::/m)
    expect(apply.stdout).toMatch(/^1 policy violation: 1 error, 0 warnings\.$/m)
    expect(apply.code).toBe(1)
    expect(writes(em())).toEqual([])
  })

  it('a warning is counted too, and the apply goes on', async () => {
    const dir = tempdir({ 'targets.yaml': target, 'rules.yaml': rule('warning') })
    const apply = await cli(em(), dir, ['apply', '--auto-approve', '--format', 'github'])
    expect(apply.stdout).toMatch(/^::warning file=targets\.yaml,line=2,col=5,title=scansync policy production-has-blackout::/m)
    expect(apply.stdout).toMatch(/^1 policy violation: 0 errors, 1 warning\.$/m)
  })
})
