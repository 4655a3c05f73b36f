// Review round 18 (saved plan files): `scansync plan --out FILE` with no path argument (the
// configuration is the current directory) saved no configuration path, so apply --plan run from
// another directory wrote the secrets state there, and the next plan in the repository showed every
// secret it had just applied as "not yet tracked".
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { copyConfiguration } from '../helpers/emulator.js'
import { cli, emulator, EXAMPLE_SECRETS, tempdir } from './helpers.js'

describe('a plan saved with no path argument, applied from another directory', () => {
  it('writes the secrets state beside the configuration, and the next plan there is empty', async () => {
    const em = await emulator({ obfuscate: true })
    const base = tempdir()
    const repo = join(base, 'repo')
    const other = join(base, 'other')
    copyConfiguration(repo)
    mkdirSync(other)
    const saved = await cli(em, repo, ['plan', '--out', 'release.plan.json'], EXAMPLE_SECRETS)
    expect(saved.code, saved.stderr).toBe(0)
    const run = await cli(em, other, ['apply', '--plan', join('..', 'repo', 'release.plan.json'), '--auto-approve'], EXAMPLE_SECRETS)
    expect(run.code, run.stderr).toBe(0)
    expect(existsSync(join(other, '.scansync'))).toBe(false)
    expect(existsSync(join(repo, '.scansync', 'state.json'))).toBe(true)
    const after = await cli(em, repo, ['plan', '--detailed-exitcode'], EXAMPLE_SECRETS)
    expect(after.stdout).not.toContain('not yet tracked')
    expect(after.code).toBe(0)
  })
})
