// Review round 19 (a rotated secret's old value printed in clear), a sibling: a target or agent
// whose name came from a ${VARIABLE}, then no longer declared by the YAML (other fields still
// are): the live name heads the resource in the plan, and it printed in clear
// (`~ agent 2PqRsT6uVwXy "agent-Name-…"`) in plan, drift, the saved plan and apply. A name the
// secrets state records as applied to the resource from a variable now heads it as its id alone.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'

const NAMED = `agents:
  - id: 2PqRsT6uVwXy
    name: "\${AGENT_NAME}"
targets:
  - id: 5HnBvC3xZaQw
    site: {name: "\${TARGET_NAME}"}
`

const UNNAMED = `agents:
  - id: 2PqRsT6uVwXy
    teams: []
targets:
  - id: 5HnBvC3xZaQw
    site: {desc: changed}
`

const SECRETS = { AGENT_NAME: 'agent-Name-6Rm3', TARGET_NAME: 'target-Name-6Rm3' }

async function namedThenNot() {
  const em = await emulator()
  const dir = tempdir({ 'c.yaml': NAMED })
  const applied = await cli(em, dir, ['apply', '--auto-approve'], SECRETS)
  expect(applied.code, applied.stderr).toBe(0)
  writeFileSync(join(dir, 'c.yaml'), UNNAMED)
  return { em, dir }
}

describe('a name applied from a variable, no longer declared', () => {
  it.each(['text', 'json', 'github', 'markdown'])('does not head the resource in plan or drift (--format %s)', async (format) => {
    const { em, dir } = await namedThenNot()
    for (const command of ['plan', 'drift']) {
      const run = await cli(em, dir, [command, '--format', format])
      expect(run.code, run.stderr).toBe(command === 'plan' ? 0 : 2)
      expect(run.stdout).toContain('2PqRsT6uVwXy')
      expect(run.stdout).toContain('5HnBvC3xZaQw')
      expect(run.stdout + run.stderr).not.toContain('6Rm3')
    }
  })

  it('is not in the saved plan, nor in what apply --plan and apply print', async () => {
    const { em, dir } = await namedThenNot()
    const saved = await cli(em, dir, ['plan', '--out', 'release.plan.json'])
    expect(saved.code, saved.stderr).toBe(0)
    expect(readFileSync(join(dir, 'release.plan.json'), 'utf8')).not.toContain('6Rm3')
    const applied = await cli(em, dir, ['apply', '--plan', 'release.plan.json', '--auto-approve'])
    expect(applied.code, applied.stderr).toBe(0)
    expect(applied.stdout).toContain('2PqRsT6uVwXy')
    expect(applied.stdout + applied.stderr).not.toContain('6Rm3')
    const { em: em2, dir: dir2 } = await namedThenNot()
    const direct = await cli(em2, dir2, ['apply', '--auto-approve'])
    expect(direct.code, direct.stderr).toBe(0)
    expect(direct.stdout).toContain('5HnBvC3xZaQw')
    expect(direct.stdout + direct.stderr).not.toContain('6Rm3')
  })

  // An apply of the resource without the name leaves the live name as it was: its record is kept
  // while the resource holds it (it was dropped, and the next plan printed the name again).
  it('stays hidden after an apply that no longer declares it', async () => {
    const { em, dir } = await namedThenNot()
    expect((await cli(em, dir, ['apply', '--auto-approve'])).code).toBe(0)
    writeFileSync(join(dir, 'c.yaml'), UNNAMED.replace('changed', 'changed again'))
    for (const format of ['text', 'json']) {
      const plan = await cli(em, dir, ['plan', '--format', format])
      expect(plan.code, plan.stderr).toBe(0)
      expect(plan.stdout).toContain('5HnBvC3xZaQw')
      expect(plan.stdout + plan.stderr).not.toContain('6Rm3')
    }
    const drift = await cli(em, dir, ['drift', '--unmanaged'])
    expect(drift.stdout + drift.stderr).not.toContain('6Rm3')
  })
})
