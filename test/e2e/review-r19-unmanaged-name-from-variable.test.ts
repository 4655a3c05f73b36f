// Review round 19 (a rotated secret's old value printed in clear), a sibling: a target or agent
// whose name came from a ${VARIABLE}, then left out of the YAML (moved to another repository,
// no longer managed): `drift --unmanaged` listed it with that name in clear. The secrets state
// records, by HMAC, the values the resource was applied with from variables: such a name is
// listed as (sensitive), by its id.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'

const MANAGED = `agents:
  - id: 2PqRsT6uVwXy
    name: "\${AGENT_NAME}"
targets:
  - id: 5HnBvC3xZaQw
    site: {name: "\${TARGET_NAME}"}
`

const SECRETS = { AGENT_NAME: 'agent-Name-2Jv5', TARGET_NAME: 'target-Name-2Jv5' }

describe('drift --unmanaged, a resource whose name was applied from a variable', () => {
  it.each(['text', 'json', 'github', 'markdown'])('lists it without that name (--format %s)', async (format) => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': MANAGED })
    const applied = await cli(em, dir, ['apply', '--auto-approve'], SECRETS)
    expect(applied.code, applied.stderr).toBe(0)
    writeFileSync(join(dir, 'c.yaml'), 'targets:\n  - id: 7QwErTy2UiOp\n    site: {desc: staging}\n')
    const drift = await cli(em, dir, ['drift', '--unmanaged', '--format', format])
    expect(drift.code, drift.stderr).toBe(2)
    expect(drift.stdout).toContain('2PqRsT6uVwXy')
    expect(drift.stdout).toContain('5HnBvC3xZaQw')
    // The other undeclared resources keep their names.
    expect(drift.stdout).toContain('dc-lisbon-agent')
    expect(drift.stdout + drift.stderr).not.toContain('2Jv5')
  })
})
