// A mistake in a block several resources merge is said once, naming them; a resource whose name
// holds a secret of the run is named (sensitive). Two such resources were merged into one name:
// three targets merging a block with a label declared twice read as "targets "https://x…" and
// (sensitive)", two targets, where there were three (and before grouping, three lines). Each
// (sensitive) is another resource as far as the reader can tell, so each is counted.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from './helpers.js'
import { runCli } from '../helpers/cli.js'
import { temporaryDirectory } from '../helpers/emulator.js'

beforeAll(ensureBuilt, 120_000)

const CONFIG = `x-l: &l
  labels: [{name: Prod}, {name: Prod}]
targets:
  - site: {url: "\${R20_URL_ONE}", name: One}
    <<: *l
  - site: {url: "\${R20_URL_TWO}", name: Two}
    <<: *l
  - site: {url: "https://x.example.com/", name: Three}
    <<: *l
`

describe('grouped problems of resources named (sensitive)', () => {
  it('names each of them, so that three targets are not said as two', async () => {
    const dir = temporaryDirectory('scansync-r20-', { 't.yaml': CONFIG })
    const env = { R20_URL_ONE: 'https://one-r20-secret.example.com/', R20_URL_TWO: 'https://two-r20-secret.example.com/' }
    const run = await runCli(['validate', dir], { cwd: dir, env })
    expect(run.code).toBe(1)
    const lines = run.stderr.split('\n').filter((line) => line.startsWith('t.yaml:'))
    expect(lines).toEqual([
      't.yaml:2:26: targets "https://x.example.com/", (sensitive) and (sensitive): labels[1]: name "Prod" is declared twice (first at line 2); each name may appear once',
    ])
    expect(run.stderr).toContain('1 error; nothing was sent.')
    expect(run.stderr).not.toContain('r20-secret')
  })
})
