// A GitHub runner places an annotation's `file=` relative to the repository root (the workspace):
// it turns an absolute path inside the workspace into one relative to it, and takes a relative
// path as it is (actions/runner, IssueCommandExtension). A job that runs scansync from a
// sub-folder (`defaults.run.working-directory: config`, a monorepo's `infra/scansync`) got
// annotations naming the file relative to that folder (`file=targets/shop.yaml` for
// config/targets/shop.yaml): GitHub found no such file, and no changed, drifted, invalid or
// policy-breaking line was annotated in the pull request. With GITHUB_WORKSPACE set (as on every
// runner), the annotations name the file relative to it; the text on stderr stays as given.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'
import { annotated, POLICY, TARGETS } from './annotation-fixtures.js'


describe('GitHub annotations of a run from a sub-folder of the repository', () => {
  it('name the file relative to the repository root (GITHUB_WORKSPACE), in plan, drift, apply and for validation errors', { timeout: 60_000 }, async () => {
    const em = await emulator()
    const repo = tempdir({ 'config/targets/shop.yaml': TARGETS, 'config/policies.yaml': POLICY })
    mkdirSync(join(repo, '.git'))
    const config = join(repo, 'config')
    const env = { GITHUB_WORKSPACE: repo }

    const plan = await cli(em, config, ['plan', '.', '--format', 'github'], env)
    expect(plan.code).toBe(0)
    expect(annotated(plan.stdout)).toEqual(['config/targets/shop.yaml', 'config/targets/shop.yaml'])

    const drift = await cli(em, join(config, 'targets'), ['drift', '..', '--format', 'github'], env)
    expect(drift.code).toBe(2)
    expect(annotated(drift.stdout)).toEqual(['config/targets/shop.yaml', 'config/targets/shop.yaml'])

    // From the root itself, nothing changes; outside a workspace (a laptop), the path as given.
    expect(annotated((await cli(em, repo, ['plan', 'config', '--format', 'github'], env)).stdout)).toEqual(['config/targets/shop.yaml', 'config/targets/shop.yaml'])
    expect(annotated((await cli(em, config, ['plan', '.', '--format', 'github'])).stdout)).toEqual(['targets/shop.yaml', 'targets/shop.yaml'])

    const invalid = tempdir({ 'config/bad.yaml': 'targets:\n  - id: 2DZkoZH8WMEM\n    bogus: 1\n' })
    const refused = await cli(em, join(invalid, 'config'), ['plan', '.', '--format', 'github'], { GITHUB_WORKSPACE: invalid })
    expect(refused.code).toBe(1)
    expect(annotated(refused.stderr)).toEqual(['config/bad.yaml'])

    const applied = await cli(em, config, ['apply', '.', '--auto-approve', '--format', 'github'], env)
    expect(applied.code).toBe(0)
    expect(annotated(applied.stdout)).toEqual(['config/targets/shop.yaml'])
  })
})
