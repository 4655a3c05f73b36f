// Review round 21 (attacks on the round's changes): a saved plan's paths are now relative to the
// plan file's real directory, but the configuration's path was still taken as spelt. On a runner
// whose workspace is a link (`plan $GITHUB_WORKSPACE/config --out $GITHUB_WORKSPACE/plan.json`)
// the saved path then went out of the real directory and back in through the link
// (`../../workspace/config`): the plan applied in another checkout (the apply job's runner, where
// the workspace is no link or lies elsewhere) wrote the secrets state outside that checkout, and
// its next plan showed the secret just applied as a change again. Both sides are real paths now.
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { cli, emulator, EXAMPLE_SECRETS, ROOT, tempdir } from './helpers.js'

it('a plan saved with the configuration and the plan file spelt through a linked workspace applies in another checkout, the state beside its configuration', async () => {
  const em = await emulator({ obfuscate: true })
  const base = tempdir()
  const repo = join(base, 'disk', 'runner', 'work', 'repo')
  mkdirSync(repo, { recursive: true })
  cpSync(join(ROOT, 'examples', 'config'), join(repo, 'config'), { recursive: true })
  const workspace = join(base, 'workspace')
  symlinkSync(repo, workspace)

  const saved = await cli(em, repo, ['plan', join(workspace, 'config'), '--out', join(workspace, 'release.plan.json')], EXAMPLE_SECRETS)
  expect(saved.code, saved.stderr).toBe(0)

  // The apply job's checkout: the same files elsewhere, and no link.
  const checkout = join(base, 'apply-job', 'repo')
  mkdirSync(join(base, 'apply-job'))
  cpSync(repo, checkout, { recursive: true })
  rmSync(workspace)
  const applied = await cli(em, checkout, ['apply', '--plan', 'release.plan.json', '--auto-approve'], EXAMPLE_SECRETS)
  expect(applied.code, applied.stderr).toBe(0)

  expect(existsSync(join(checkout, 'config', '.scansync', 'state.json'))).toBe(true)
  expect(existsSync(join(base, 'workspace'))).toBe(false)
  const after = await cli(em, checkout, ['plan', 'config', '--detailed-exitcode'], EXAMPLE_SECRETS)
  expect(after.stdout).toContain('No changes.')
  expect(after.code, after.stdout + after.stderr).toBe(0)
})
