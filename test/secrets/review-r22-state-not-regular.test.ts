// Review round 22 (attacks on the last round's changes): the round made `audit` read the secrets
// state (to hide agent names an earlier apply set from variables), and fixed a FIFO where a state
// may have been *left elsewhere*, yet the state itself, at .scansync/state.json, was still read by
// whatever was there: a FIFO (nobody writing to it) made plan, drift, apply and now audit wait for
// a writer for ever, saying nothing (and a link to /dev/zero was read until memory ran out, then
// said 'cannot read the secrets state …: undefined'). Only a regular file is read, as the
// configuration's files are: anything else is refused at once, saying what to do.
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { spawnCli } from '../helpers/cli.js'
import { ensureBuilt } from '../config/helpers.js'
import { emulator, envFor, EXAMPLE_SECRETS, tempdir } from '../e2e/helpers.js'
import { copyConfiguration } from '../helpers/emulator.js'

beforeAll(ensureBuilt, 120_000)

const NOT_REGULAR = 'is not a regular file (a directory, a device, a pipe or a socket); move it away to start over'

/** A copy of examples/config with a policy (audit needs one), its state replaced by `make`. */
function configurationWithState(make: (state: string) => void): string {
  const dir = tempdir()
  copyConfiguration(dir)
  writeFileSync(join(dir, 'policies.yaml'), 'policies:\n  - name: agents-named\n    kind: agent\n    require: {required: [name]}\n')
  mkdirSync(join(dir, '.scansync'))
  make(join(dir, '.scansync', 'state.json'))
  return dir
}

describe('a secrets state that is not a regular file', () => {
  it('a FIFO nobody writes to: plan, drift, audit and apply refuse it at once (exit 1), nothing sent', async () => {
    const em = await emulator({ obfuscate: true })
    const dir = configurationWithState((state) => void execFileSync('mkfifo', [state]))
    for (const args of [['plan'], ['drift'], ['audit'], ['apply', '--auto-approve']]) {
      // A child process: a run blocked on the FIFO would block this one too if it ran in-process.
      let child: { kill(): void } | undefined
      const run = spawnCli(args, { cwd: dir, env: envFor(em, EXAMPLE_SECRETS), onSpawn: (c) => (child = c) })
      try {
        const result = await run
        expect(result.code, `${args[0]}: ${result.stderr}`).toBe(1)
        expect(result.stderr).toContain(`the secrets state ${join(dir, '.scansync', 'state.json')} ${NOT_REGULAR}`)
      } finally {
        child?.kill()
      }
    }
    expect(em.requests().filter((r) => r.method !== 'GET')).toEqual([])
  }, 120_000)
})
