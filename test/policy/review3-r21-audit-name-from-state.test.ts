// Review round 21 (attacks on the round's later changes): an agent whose name an earlier apply set
// from a ${VARIABLE}, no longer declared so, counts as a secret of the run in plan, drift and
// apply: shown as (sensitive) and offered in no "did you mean". audit resolves the same names from
// the same configuration, but read no secrets state, so a mistyped agent name near it was answered
// with that name in clear ('did you mean "agent-Name-2Jv5"?') by the nightly audit, in every format.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from '../e2e/helpers.js'

beforeAll(ensureBuilt, 120_000)

const SECRETS = { AGENT_NAME: 'agent-Name-2Jv5' }
const TYPO = `targets:
  - id: 7QwErTy2UiOp
    scanning_agent: {name: agent-Name-2Jv4}
policies:
  - name: targets-have-a-site
    kind: target
    require: {required: [site]}
`

describe('audit: a mistyped agent name near an agent whose name was applied from a variable, no longer declared', () => {
  it('offers the name nowhere, as plan does', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': `agents:\n  - id: 2PqRsT6uVwXy\n    name: "\${AGENT_NAME}"\n` })
    const applied = await cli(em, dir, ['apply', '--auto-approve'], SECRETS)
    expect(applied.code, applied.stderr).toBe(0)
    writeFileSync(join(dir, 'c.yaml'), TYPO)
    for (const format of ['text', 'json', 'markdown', 'github']) {
      const run = await cli(em, dir, ['audit', '--format', format])
      expect(run.code).toBe(1)
      expect(run.stdout + run.stderr).toContain('no agent is named "agent-Name-2Jv4"')
      expect((run.stdout + run.stderr).toLowerCase()).not.toContain(SECRETS.AGENT_NAME.toLowerCase())
    }
    // The same answer as plan's.
    const plan = await cli(em, dir, ['plan'])
    expect(plan.code).toBe(1)
    expect(plan.stderr.toLowerCase()).not.toContain(SECRETS.AGENT_NAME.toLowerCase())
  })
})
