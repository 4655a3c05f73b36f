// Review round 24 (saved plans, staleness and the state file): apply --plan read whatever the path
// named. A FIFO nobody writes to (a plan meant to be piped in, its writer gone) blocked the apply
// for ever, saying nothing, and a CI job's cancel (SIGTERM) printed "Interrupted … nothing was sent"
// yet did not end it (a thread of libuv's pool waiting in open()); a link to /dev/zero was read
// until memory ran out. As the secrets state and the configuration's files, only a regular file
// is read: anything else is refused at once, naming it, nothing sent.
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { spawnCli } from '../helpers/cli.js'
import { ensureBuilt } from '../config/helpers.js'
import { emulator, envFor, tempdir, writes } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const NOT_REGULAR = 'not a regular file (a device, a pipe or a socket); name the file scansync plan --out wrote'

describe('apply --plan naming something that is not a regular file', () => {
  it.each([
    ['a FIFO nobody writes to', (dir: string) => (execFileSync('mkfifo', [join(dir, 'release.plan.json')]), 'release.plan.json')],
    ['a device', () => '/dev/null'],
  ])('%s: refused at once (exit 1), nothing sent', async (_, make) => {
    const em = await emulator()
    const dir = tempdir()
    const file = make(dir)
    // A child process: a run blocked on the FIFO would block this one too if it ran in-process.
    let child: { kill(signal?: NodeJS.Signals): void } | undefined
    const run = spawnCli(['apply', '--plan', file, '--auto-approve'], { cwd: dir, env: envFor(em), onSpawn: (c) => (child = c) })
    try {
      const result = await run
      expect(result.code, result.stderr).toBe(1)
      expect(result.stderr).toContain(`cannot read the saved plan ${file}: ${NOT_REGULAR}`)
      expect(result.stderr).toContain('Nothing was sent.')
    } finally {
      child?.kill('SIGKILL')
    }
    expect(writes(em)).toEqual([])
  }, 60_000)
})
