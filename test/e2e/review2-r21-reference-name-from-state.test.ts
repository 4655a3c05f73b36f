// Review round 21 (attacks on the round's changes): plans now name the agent a target refers to by
// id from the agent list read to check that id. An agent whose name an earlier apply set from a
// ${VARIABLE}, since left out of the YAML, is listed by `drift --unmanaged` as (sensitive) (the
// secrets state records the value as applied from a variable); the plan printed that name in
// clear (`scanning_agent: null -> agent-Name-2Jv5`), and a saved plan wrote it to its file.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const AGENT = '2PqRsT6uVwXy'
const SECRETS = { AGENT_NAME: 'agent-Name-2Jv5' }

describe('a target referring to an agent whose name was applied from a variable, no longer declared', () => {
  it.each([
    ['by id (the agent list read to check the id)', `targets:\n  - id: 7QwErTy2UiOp\n    scanning_agent: ${AGENT}\n`],
    ['by id, the agent list read for another target\'s name', `targets:\n  - id: 7QwErTy2UiOp\n    scanning_agent: ${AGENT}\n  - id: 5HnBvC3xZaQw\n    scanning_agent: {name: dc-lisbon-agent}\n`],
  ])('%s: the name is (sensitive) in every format and in the saved plan', async (_, yaml) => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': `agents:\n  - id: ${AGENT}\n    name: "\${AGENT_NAME}"\n` })
    const applied = await cli(em, dir, ['apply', '--auto-approve'], SECRETS)
    expect(applied.code, applied.stderr).toBe(0)
    writeFileSync(join(dir, 'c.yaml'), yaml)
    const unmanaged = await cli(em, dir, ['drift', '--unmanaged', '--kind', 'agent'])
    // Listed by its id alone, as a plan heads a resource whose name is hidden.
    expect(unmanaged.stdout).toMatch(new RegExp(`^\\? agent ${AGENT}$`, 'm'))
    for (const format of ['text', 'markdown', 'github']) {
      const run = await cli(em, dir, ['plan', '--format', format])
      expect(run.code, run.stderr).toBe(0)
      expect(run.stdout).toContain('(sensitive)')
      expect((run.stdout + run.stderr).toLowerCase()).not.toContain(SECRETS.AGENT_NAME.toLowerCase())
    }
    const saved = await cli(em, dir, ['plan', '--out', 'p.json'])
    expect(saved.code, saved.stderr).toBe(0)
    expect(readFileSync(join(dir, 'p.json'), 'utf8').toLowerCase()).not.toContain(SECRETS.AGENT_NAME.toLowerCase())
    const text = await cli(em, dir, ['plan'])
    expect(text.stdout).toContain('scanning_agent: null -> (sensitive)\n')
  })
})
