// Review round 19 (the secrets state file over a repository's life): a .scansync/state.json joined
// by hand after a merge (a comma left after the last entry of one side) made plan, apply and drift
// say only that it "is not a scansync state file; move it away to start over": moving it away
// re-sends every hidden secret, and nothing said where the file was wrong. They now name the line
// and column, without quoting the file.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { appliedWithState, cli, EXAMPLE_SECRETS } from './helpers.js'

it('a state that is not valid JSON is reported with its line and column, and nothing is sent', async () => {
  const { em, dir, state } = await appliedWithState()
  const good = readFileSync(state, 'utf8')
  const lines = good.split('\n')
  // The first resource's closing brace, given the comma of a hand merge: the next line is then wrong.
  const close = lines.findIndex((l, i) => l === '    },' && i > 0)
  expect(close).toBeGreaterThan(0)
  const broken = [...lines.slice(0, close - 1), lines[close - 1] + ',', ...lines.slice(close)].join('\n')
  writeFileSync(state, broken)

  for (const command of [['plan'], ['drift'], ['apply', '--auto-approve']]) {
    em.clearRequests()
    const run = await cli(em, dir, command, EXAMPLE_SECRETS)
    expect(run.code, run.stderr).toBe(1)
    expect(run.stderr).toContain(`the secrets state ${state} is not valid JSON (line ${close + 1}, column 5); mend it there`)
    expect(run.stderr).not.toContain('OBFUSCATED_')
    expect(em.requests().filter((r) => r.method !== 'GET')).toEqual([])
  }
  expect(readFileSync(state, 'utf8')).toBe(broken)
})
