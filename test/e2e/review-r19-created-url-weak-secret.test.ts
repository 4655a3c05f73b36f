// Review round 19 (this round's changes as a user meets them): a target to create is headed by its
// URL (`+ target (https://new-qz7x.example.com/)`). A URL holding a weak secret of the run (a short
// variable's value, which the output step cannot replace) was printed in clear in that heading in
// text, markdown and github (annotation titles) and in apply's report, while its own field line
// said `site.url: (sensitive)` and the name beside it was left out. The heading now shows such a
// URL as (sensitive), as a URL from a variable already was. The real CLI against the emulator.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const WEAK = 'qz7x'
const files = {
  'targets.yaml': 'targets:\n  - site:\n      name: "Shop qz7x"\n      url: https://new-qz7x.example.com/\n      desc: "${SUFFIX}"\n',
}

describe('a target to create whose URL holds a weak secret of the run', () => {
  it.each([['text'], ['markdown'], ['github'], ['json']])('plan --format %s never prints it', async (format) => {
    const em = await emulator()
    const run = await cli(em, tempdir(files), ['plan', '.', '--format', format], { SUFFIX: WEAK })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/site\.url/)
    expect(run.stdout + run.stderr).not.toContain(WEAK)
  })

  it('plan (text) heads it as (sensitive)', async () => {
    const em = await emulator()
    const run = await cli(em, tempdir(files), ['plan', '.'], { SUFFIX: WEAK })
    expect(run.stdout).toMatch(/^\+ target \(\(sensitive\)\)$/m)
  })

  it('apply prints it nowhere, and creates the target', async () => {
    const em = await emulator()
    const run = await cli(em, tempdir(files), ['apply', '.', '--auto-approve'], { SUFFIX: WEAK })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/created/)
    expect(run.stdout + run.stderr).not.toContain(WEAK)
    expect(em.requests().some((r) => r.method === 'POST')).toBe(true)
  })
})
