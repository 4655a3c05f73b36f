// Review round 22 (attacks on the round's references, secrets and schema changes): an agent named
// from a variable (`name: ${LISBON_NAME}`), applied, then no longer named so in the YAML: the
// secrets state records its name as a secret, and every plan shows it (sensitive). Against a
// service that answers a target's scanning agent by name alone, plan, drift and the saved plan
// printed that name in clear (`scanning_agent: lisbon-S3cret-name -> dc-porto-agent`, JSON's
// `before: {name: …}`). Such a name is now shown (sensitive), as it is where the answer has ids.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'
import { serviceWithoutIds } from './without-ids.js'

beforeAll(ensureBuilt, 120_000)

const SECRET = 'lisbon-S3cret-name'

describe('a scanning agent answered by a name the secrets state records from a variable', () => {
  it('is shown (sensitive) by plan, drift and the saved plan', async () => {
    const em = await emulator()
    const env = await serviceWithoutIds(em)
    const dir = tempdir({ 'c.yaml': 'agents:\n  - id: 3kLx8Qy7Pb2m\n    name: ${LISBON_NAME}\n' })
    const applied = await cli(em, dir, ['apply', '--auto-approve'], { ...env, LISBON_NAME: SECRET })
    expect(applied.code, applied.stdout + applied.stderr).toBe(0)
    for (const config of ['targets:\n  - id: 2DZkoZH8WMEM\n    scanning_agent: 6NbVcX4zLkJh\n', 'targets:\n  - id: 2DZkoZH8WMEM\n    scanning_agent: null\n']) {
      writeFileSync(join(dir, 'c.yaml'), config)
      const text = await cli(em, dir, ['plan'], env)
      expect(text.code, text.stderr).toBe(0)
      expect(text.stdout).toContain('    scanning_agent: (sensitive) -> (sensitive)\n')
      const runs = [text, await cli(em, dir, ['plan', '--format', 'json'], env), await cli(em, dir, ['drift', '--format', 'markdown'], env), await cli(em, dir, ['plan', '--out', 'p.json'], env)]
      for (const run of runs) expect(run.stdout + run.stderr).not.toContain(SECRET)
      expect(readFileSync(join(dir, 'p.json'), 'utf8')).not.toContain(SECRET)
    }
  })
})
