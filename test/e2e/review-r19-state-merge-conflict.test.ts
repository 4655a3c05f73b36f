// Review round 19 (the secrets state file over a repository's life): two branches that each
// recorded secrets, merged, leave a git conflict inside .scansync/state.json. plan, apply and drift
// said the file "is not a scansync state file; move it away to start over", which loses what both
// sides recorded (every hidden secret re-sent) and names no line. They now say it holds a merge
// conflict, on which line, and to keep one side's file whole; nothing is sent, the file is kept.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { appliedWithState, cli, EXAMPLE_SECRETS } from './helpers.js'

it('a state left with conflict markers is named as a merge conflict, with its line, and nothing is sent', async () => {
  const { em, dir, state } = await appliedWithState()
  const ours = readFileSync(state, 'utf8')
  const lines = ours.split('\n')
  const keyLine = lines.findIndex((l) => l.includes('"key_id"'))
  const conflicted = [...lines.slice(0, keyLine), '<<<<<<< HEAD', lines[keyLine], '=======', '  "key_id": "0123456789abcdef",', '>>>>>>> feature/new-shop', ...lines.slice(keyLine + 1)].join('\n')
  writeFileSync(state, conflicted)

  for (const command of [['plan'], ['drift'], ['apply', '--auto-approve']]) {
    em.clearRequests()
    const run = await cli(em, dir, command, EXAMPLE_SECRETS)
    expect(run.code, run.stderr).toBe(1)
    expect(run.stderr).toContain(`the secrets state ${state} holds a merge conflict (a conflict marker on line ${keyLine + 1})`)
    expect(run.stderr).toContain("keep one side's file whole")
    expect(run.stderr).not.toContain('not a scansync state file')
    expect(em.requests().filter((r) => r.method !== 'GET')).toEqual([])
  }
  expect(readFileSync(state, 'utf8')).toBe(conflicted)

  // Resolved by keeping one side: nothing to change.
  writeFileSync(state, ours)
  const plan = await cli(em, dir, ['plan', '--detailed-exitcode'], EXAMPLE_SECRETS)
  expect(plan.code, plan.stderr + plan.stdout).toBe(0)
})
