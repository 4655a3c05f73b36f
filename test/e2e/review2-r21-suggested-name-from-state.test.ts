// Review round 21 (attacks on the round's changes), a sibling of review2-r21-reference-name-from-state:
// an agent whose name an earlier apply set from a ${VARIABLE}, since left out of the YAML, is
// (sensitive) in drift --unmanaged and in plans; the "did you mean" of a mistyped agent name
// (`no agent is named "agent-Name-2Jv4"; did you mean "agent-Name-2Jv5"?`) or of a mistyped id
// (`did you mean "2PqRsT6uVwXy" (named "agent-Name-2Jv5")?`) still offered it in clear.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const AGENT = '2PqRsT6uVwXy'
const SECRETS = { AGENT_NAME: 'agent-Name-2Jv5' }

describe('a mistyped reference near an agent whose name was applied from a variable, no longer declared', () => {
  it.each([
    ['a name', `targets:\n  - id: 7QwErTy2UiOp\n    scanning_agent: {name: agent-Name-2Jv4}\n`, 'no agent is named "agent-Name-2Jv4"'],
    ['an id', `targets:\n  - id: 7QwErTy2UiOp\n    scanning_agent: 2PqRsT6uVwXz\n`, 'no agent has the id "2PqRsT6uVwXz"'],
  ])('%s: the error offers the name nowhere', async (_, yaml, error) => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': `agents:\n  - id: ${AGENT}\n    name: "\${AGENT_NAME}"\n` })
    const applied = await cli(em, dir, ['apply', '--auto-approve'], SECRETS)
    expect(applied.code, applied.stderr).toBe(0)
    writeFileSync(join(dir, 'c.yaml'), yaml)
    for (const format of ['text', 'github']) {
      const run = await cli(em, dir, ['plan', '--format', format])
      expect(run.code).toBe(1)
      expect(run.stderr).toContain(error)
      expect((run.stdout + run.stderr).toLowerCase()).not.toContain(SECRETS.AGENT_NAME.toLowerCase())
    }
  })
})
