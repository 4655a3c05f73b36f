// Review round 19 (the secrets state's record of variables' values): a state written with another
// key (the API token rotated, or a plan job holding another token, without SCANSYNC_STATE_KEY).
// The state records the value a label took from a variable, but cannot be checked with this key:
// once the variable was rotated, plan and drift printed the old label in clear (- "OldLabel-…"),
// and no note said anything. Every live value of such a resource is now shown as (sensitive), and
// the key note says that these values cannot be recognised, and what to set.
import { expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'

const ROTATED = 'rotated-Tok3n-2b7d4f9a1c'

it('a rotated variable recorded with another key: the old value is never printed, and a note says why', async () => {
  const em = await emulator()
  const dir = tempdir({ 'c.yaml': 'targets:\n  - id: 7QwErTy2UiOp\n    labels: [{name: "${ENV}"}]\n' })
  const first = await cli(em, dir, ['apply', '--auto-approve'], { ENV: 'OldLabel-7Qx2' })
  expect(first.code, first.stderr).toBe(0)

  em.rotateToken(ROTATED)
  const env = { ENV: 'NewLabel-9Wz4', SCANSYNC_API_TOKEN: ROTATED }
  for (const command of [['plan'], ['plan', '--format', 'json'], ['drift']]) {
    const run = await cli(em, dir, command, env)
    expect(run.code, run.stderr).toBe(command[0] === 'drift' ? 2 : 0)
    expect(run.stdout).toContain('(sensitive)')
    expect(run.stdout + run.stderr).not.toMatch(/7Qx2|9Wz4/)
    expect(run.stderr).toContain('the values 1 resource took from variables cannot be recognised')
    expect(run.stderr).toContain('the state was written with another key (target 7QwErTy2UiOp;')
  }
})
