// Review round 21 (the same plan on every machine): a saved plan keeps the configuration's path
// relative to the plan file's directory, and that was counted from the directory as spelt. On a
// runner whose workspace is reached through a symbolic link (GITHUB_WORKSPACE a link to a data
// disk, the working directory the real path), `plan --out $GITHUB_WORKSPACE/release.plan.json`
// then `apply --plan release.plan.json` counted the `..` from the other spelling: the apply wrote
// the secrets state in a folder elsewhere (or at the root of the file system), and the next plan
// showed the secret just applied as "changed in YAML" again. The plan file's real directory is now
// the base on both sides.
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { cli, emulator, EXAMPLE_SECRETS, ROOT, tempdir } from './helpers.js'

it('a plan saved through a linked folder and applied by its real path keeps the state beside the configuration', async () => {
  const em = await emulator({ obfuscate: true })
  const base = tempdir()
  const repo = join(base, 'disk', 'runner', 'work', 'repo')
  mkdirSync(join(base, 'disk', 'runner', 'work'), { recursive: true })
  cpSync(join(ROOT, 'examples', 'config'), repo, { recursive: true })
  const workspace = join(base, 'workspace')
  symlinkSync(repo, workspace)
  const state = join(repo, '.scansync', 'state.json')

  const first = await cli(em, repo, ['apply', '--auto-approve'], EXAMPLE_SECRETS)
  expect(first.code, first.stderr).toBe(0)
  const recorded = readFileSync(state, 'utf8')

  const rotated = { ...EXAMPLE_SECRETS, SHOP_LOGIN_PASSWORD: 'login-Rotated-62c0e9' }
  const saved = await cli(em, repo, ['plan', '--out', join(workspace, 'release.plan.json')], rotated)
  expect(saved.code, saved.stderr).toBe(0)
  const applied = await cli(em, repo, ['apply', '--plan', 'release.plan.json', '--auto-approve'], rotated)
  expect(applied.code, applied.stderr).toBe(0)

  expect(readFileSync(state, 'utf8')).not.toBe(recorded)
  expect(existsSync(join(base, 'disk', 'runner', 'work', 'disk'))).toBe(false)
  const after = await cli(em, repo, ['plan', '--detailed-exitcode'], rotated)
  expect(after.stdout).toContain('No changes.')
  expect(after.code).toBe(0)
})
