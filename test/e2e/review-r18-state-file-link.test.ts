// Review round 18 (saved plan and state files): the secrets state at a symbolic link (a CI cache
// linked in place of .scansync/state.json). scansync writes its files whole and refuses to write
// through a link (README: "a symbolic link … is an error"), but the apply that had just sent its
// changes said only "could not be written to …/state.json (ENOTREGULAR)": a code of scansync's own
// that names nothing the user can act on. It now says what is at that place, as plan --out does.
import { readFileSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { cli, emulator, exampleConfig, EXAMPLE_SECRETS, tempdir } from './helpers.js'

it('apply with the state at a symbolic link: the error names the link, not a bare code, and the linked file is left as it was', async () => {
  const em = await emulator({ obfuscate: true })
  const dir = exampleConfig()
  const elsewhere = join(tempdir(), 'state.json')
  const before = '{"format_version":1,"resources":{}}\n'
  writeFileSync(elsewhere, before)
  mkdirSync(join(dir, '.scansync'))
  symlinkSync(elsewhere, join(dir, '.scansync', 'state.json'))
  const run = await cli(em, dir, ['apply', '--auto-approve'], EXAMPLE_SECRETS)
  expect(run.code).toBe(1)
  expect(run.stdout).toContain('4 applied')
  expect(run.stderr).not.toContain('ENOTREGULAR')
  expect(run.stderr).toContain(`the secrets state could not be written to ${join(dir, '.scansync', 'state.json')} (`)
  expect(run.stderr).toContain('is a symbolic link')
  expect(readFileSync(elsewhere, 'utf8')).toBe(before)
})
