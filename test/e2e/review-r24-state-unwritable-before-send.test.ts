// An apply whose secrets state could not be written (a symbolic link where .scansync/state.json
// is, a read-only folder) found out only after its last request: the passwords from variables were
// sent and not recorded, and every later plan showed them as "not yet tracked" and sent them again,
// at every run of the CI job. It now refuses before sending anything it would have to record; one
// with nothing to record (no variable, no secret) applies as before. (Round 18's test of this
// place, which had the apply send and then name the link, is this file's first case now.)
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import type { Emulator } from '../../src/emulator/index.js'
import { cli, emulator, exampleConfig, EXAMPLE_SECRETS, tempdir, writes } from './helpers.js'

let em: Emulator | undefined
afterEach(async () => {
  await em?.close()
  em = undefined
})

/** The state at a symbolic link to a file elsewhere, as a CI cache links it in; what that file held. */
function linkedState(dir: string): { linked: string; before: string } {
  const linked = join(tempdir(), 'state.json')
  const before = '{"format_version":1,"resources":{}}\n'
  writeFileSync(linked, before)
  mkdirSync(join(dir, '.scansync'), { recursive: true })
  symlinkSync(linked, join(dir, '.scansync', 'state.json'))
  return { linked, before }
}

it('refuses before its first request when it would record passwords from variables in a state it cannot write', async () => {
  em = await emulator({ obfuscate: true })
  const dir = exampleConfig()
  const { linked, before } = linkedState(dir)
  const run = await cli(em, dir, ['apply', '--auto-approve'], EXAMPLE_SECRETS)
  expect(run.code).toBe(1)
  expect(run.stderr).toContain(`the secrets state ${join(dir, '.scansync', 'state.json')} cannot be written (`)
  expect(run.stderr).toContain('is a symbolic link')
  expect(run.stderr).not.toContain('ENOTREGULAR')
  expect(run.stderr).toContain('Nothing was sent.')
  expect(writes(em)).toEqual([])
  expect(em.requests().filter((r) => r.method === 'POST')).toEqual([])
  expect(readFileSync(linked, 'utf8')).toBe(before)
  for (const secret of Object.values(EXAMPLE_SECRETS)) expect(run.stdout + run.stderr).not.toContain(secret)
})

it('applies as before when nothing it sends is recorded there (no variable, no secret)', async () => {
  em = await emulator({ obfuscate: true })
  const dir = exampleConfig()
  rmSync(join(dir, 'targets'), { recursive: true })
  linkedState(dir)
  const run = await cli(em, dir, ['apply', '--auto-approve'])
  expect(run.stderr).not.toContain('cannot be written')
  expect(run.code).toBe(0)
  expect(writes(em).length).toBeGreaterThan(0)
})
