// Review round 19 (a last sweep for secrets in what this round added): a target to create whose URL
// holds a weak secret of the run (a short variable's value, which the output step cannot replace)
// is headed by the plan as (sensitive) (4375932), but a policy's violation named it by that URL in
// clear, in plan and apply, every format (target https://new-qz7x.example.com/: …, "id" in JSON).
// It is now (sensitive) there too. The real CLI against the emulator.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const WEAK = 'qz7x'
const files = {
  't.yaml':
    'targets:\n  - site: {name: New app, url: "https://new-qz7x.example.com/", desc: "${SUFFIX}"}\n' +
    'policies:\n  - name: needs-blackout\n    description: Targets pause scans in office hours\n    kind: target\n    require:\n      required: [blackout_period]\n    level: warning\n',
}

describe('a policy violation of a target to create whose URL holds a weak secret of the run', () => {
  it.each([['text'], ['markdown'], ['github'], ['json']])('plan --format %s names it (sensitive)', async (format) => {
    const em = await emulator()
    const run = await cli(em, tempdir(files), ['plan', '.', '--format', format], { SUFFIX: WEAK })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout + run.stderr).toMatch(/needs-blackout/)
    expect((run.stdout + run.stderr).toLowerCase()).not.toContain(WEAK)
  })

  it('plan (text) says which target as (sensitive)', async () => {
    const em = await emulator()
    const run = await cli(em, tempdir(files), ['plan', '.'], { SUFFIX: WEAK })
    expect(run.stderr).toContain('policy needs-blackout: target (sensitive): Targets pause scans')
  })

  it('apply prints it nowhere', async () => {
    const em = await emulator()
    const run = await cli(em, tempdir(files), ['apply', '.', '--auto-approve'], { SUFFIX: WEAK })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toContain('policy needs-blackout: target (sensitive)')
    expect((run.stdout + run.stderr).toLowerCase()).not.toContain(WEAK)
  })
})
