// A plan whose secrets state is not where it reads it looks for one left beside another PATH or
// one folder up (to name it in a note). A FIFO in that place (nobody writes to it) made the run
// wait for a writer for ever, before reading anything from the service. It is no state: the plan runs, with no note.
import { execFileSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { spawnCli } from '../helpers/cli.js'
import { emulator, envFor, EXAMPLE_SECRETS, tempdir } from '../e2e/helpers.js'
import { copyConfiguration } from '../helpers/emulator.js'

describe('a thing that is not a file where a state may have been left', () => {
  it('a FIFO one folder up: the plan runs, with no note (it waited for a writer for ever)', async () => {
    const em = await emulator({ obfuscate: true })
    const repo = tempdir()
    copyConfiguration(join(repo, 'config'))
    mkdirSync(join(repo, '.scansync'))
    execFileSync('mkfifo', [join(repo, '.scansync', 'state.json')])
    // A child process: a run blocked on the FIFO would block this one too if it ran in-process.
    let child: { kill(): void } | undefined
    const run = spawnCli(['plan', 'config'], { cwd: repo, env: envFor(em, EXAMPLE_SECRETS), onSpawn: (c) => (child = c) })
    try {
      const result = await run
      expect(result.code).toBe(0)
      expect(result.stdout).toContain('not yet tracked')
      expect(result.stderr).not.toContain('Note: there is no secrets state')
    } finally {
      child?.kill()
    }
  }, 60_000)
})
