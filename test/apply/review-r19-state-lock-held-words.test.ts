// Review round 19 (the secrets state file over a repository's life): an apply whose secrets state
// stays locked (state.json.lock, held by another run, or left by one that was killed and copied or
// committed along with the state) sent its changes, then failed with "the secrets state could not
// be written to …/state.json (ELOCKED)": scansync's own code, naming neither the lock file nor what
// holds it. It now says which lock is held, and by what.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { cli, emulator, exampleConfig, EXAMPLE_SECRETS } from '../e2e/helpers.js'

it('a state write refused by a held lock names the lock, not ELOCKED', async () => {
  const em = await emulator({ obfuscate: true })
  const dir = exampleConfig()
  const state = join(dir, '.scansync', 'state.json')
  mkdirSync(join(dir, '.scansync'))
  const lock = `${state}.lock`
  writeFileSync(lock, '1 another-run')
  // Dated in the future: never taken for a lock left by a process that died, however slow the run.
  const later = new Date(Date.now() + 3_600_000)
  utimesSync(lock, later, later)

  const run = await cli(em, dir, ['apply', '--auto-approve', '--quiet'], EXAMPLE_SECRETS)
  expect(run.code).toBe(1)
  expect(run.stderr).toContain(`the changes above were sent, but the secrets state could not be written to ${state} (${lock} is held by another scansync)`)
  expect(run.stderr).not.toContain('ELOCKED')
})
